// swift-tools-version:6.0
import PackageDescription

// Minimum Apple versions: macOS 13 / iOS 16 is the oldest line where every API the SDK calls
// exists (`Duration`, `Clock`, `Data.base64`-style APIs, POSIX sockets); newer APIs such as
// `Synchronization.Mutex` (macOS 15 / iOS 18) are used only behind the fallback in `Lock.swift`.
let package = Package(
    name: "Jarvis",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // What an app links and imports to embed the agent: `import Jarvis` brings the agent,
        // its default scanners and the core types.
        .library(name: "Jarvis", targets: ["Jarvis"]),
        .library(name: "JarvisCore", targets: ["JarvisCore"]),
        .library(name: "JarvisScanners", targets: ["JarvisScanners"]),
        // Kept for hosts written before the `Jarvis` product: it carries the scanners and the
        // `Jarvis` module as it carried them before. Targets inside the package depend on the
        // JarvisRemote target alone, so the `jarvis` CLI links no scanner.
        .library(name: "JarvisRemote", targets: ["JarvisRemote", "JarvisScanners", "Jarvis"]),
        .library(name: "JarvisInspector", targets: ["JarvisInspector"]),
        .library(name: "JarvisUI", targets: ["JarvisUI"]),
        .executable(name: "jarvis", targets: ["jarvis"]),
        .executable(name: "jarvis-agent", targets: ["jarvis-agent"]),
        .executable(name: "jarvis-bench", targets: ["jarvis-bench"]),
    ],
    targets: [
        .target(name: "JarvisCore"),
        // System primitives shared by the scanners and the agent: atomic file writes, raw
        // system calls, file stamps, folder change counts, and the Simulator folder model.
        // No scanner.
        // The libraries that call APIs Apple lists as "required reason" APIs (file timestamps;
        // UserDefaults in the scanners) carry a privacy manifest saying why, which Xcode merges
        // into the app's privacy report (docs/IOS.md).
        .target(
            name: "JarvisSystem", dependencies: ["JarvisCore", "CJarvisEpoll"],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(
            name: "JarvisScanners", dependencies: ["JarvisCore", "JarvisSystem"],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The Linux headers Swift's Glibc module does not expose: epoll and statfs (empty on
        // other systems).
        .systemLibrary(name: "CJarvisEpoll"),
        // Sockets, the readiness loop, line framing and output budgets; knows no JSON and no
        // agent, as FlyingSocks sits below FlyingFox.
        .target(
            name: "JarvisTransport", dependencies: ["JarvisCore", "JarvisSystem", "CJarvisEpoll"],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The agent, its wire protocol and its clients, over the transport.
        .target(
            name: "JarvisRemote", dependencies: ["JarvisCore", "JarvisSystem", "JarvisTransport", "CJarvisEpoll"],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The module an app imports: the agent with its default scanners.
        .target(name: "Jarvis", dependencies: ["JarvisCore", "JarvisScanners", "JarvisRemote"]),
        // The demo's sample data and scanners, for the executables only: an app that embeds
        // the agent never ships it.
        .target(name: "JarvisDemo", dependencies: ["JarvisCore", "JarvisScanners", "JarvisRemote", "Jarvis"]),
        // The inspector model every interactive face sits on; platform-neutral, no UI framework.
        .target(name: "JarvisInspector", dependencies: ["JarvisCore", "JarvisRemote"]),
        // `jarvis web`: a loopback HTTP server and the page it serves, kept as plain HTML, CSS and
        // JavaScript files in Page/ and compiled into the binary (no build step, nothing from
        // the network).
        .target(
            name: "JarvisWeb", dependencies: ["JarvisCore", "JarvisTransport", "JarvisRemote", "JarvisInspector"],
            resources: [.embedInCode("Page")]),
        // The in-app SwiftUI panel; its sources compile only where SwiftUI exists.
        .target(name: "JarvisUI", dependencies: ["JarvisInspector", "JarvisRemote", "JarvisCore"]),
        // The command-line parser of the three executables; internal, not a product.
        .target(name: "JarvisCommandLine"),
        .executableTarget(
            name: "jarvis-agent",
            dependencies: [
                "JarvisCore", "JarvisSystem", "JarvisScanners", "JarvisRemote", "Jarvis", "JarvisDemo",
                "JarvisCommandLine",
            ]),
        .executableTarget(
            name: "jarvis",
            // `jarvis demo` runs the `jarvis-agent` built beside it, so the CLI links no scanner
            // (a dependency on that executable would link its libraries into this one).
            dependencies: ["JarvisCore", "JarvisTransport", "JarvisRemote", "JarvisInspector", "JarvisWeb", "JarvisCommandLine"]),
        // The benchmark runs the real `jarvis` and `jarvis-agent` binaries as children, so it
        // depends on them to have `swift run jarvis-bench` build them too.
        .executableTarget(
            name: "jarvis-bench",
            dependencies: [
                "JarvisCore", "JarvisScanners", "JarvisTransport", "JarvisRemote", "Jarvis", "JarvisCommandLine",
                "JarvisInspector", "JarvisTestSupport", "jarvis", "jarvis-agent",
            ]),
        .testTarget(name: "JarvisCoreTests", dependencies: ["JarvisCore", "JarvisScanners", "JarvisTestSupport"]),
        .testTarget(
            name: "JarvisScannersTests",
            dependencies: ["JarvisCore", "JarvisSystem", "JarvisScanners", "JarvisTestSupport"]),
        .testTarget(name: "JarvisCommandLineTests", dependencies: ["JarvisCommandLine"]),
        .testTarget(
            name: "JarvisInspectorTests", dependencies: ["JarvisInspector", "JarvisCore", "JarvisRemote", "JarvisScanners"]),
        // Helpers the test targets and jarvis-bench share (temporary folders, waiting for a
        // condition, a tmux pane to type into); no product ships it.
        .target(name: "JarvisTestSupport", dependencies: ["JarvisSystem", "JarvisTransport"], path: "Tests/JarvisTestSupport"),
        // The transport's own tests: sockets, framing, the readiness loop, the work pool.
        .testTarget(
            name: "JarvisTransportTests", dependencies: ["JarvisCore", "JarvisTransport", "JarvisTestSupport"]),
        .testTarget(
            name: "JarvisRemoteTests",
            dependencies: [
                "JarvisCore", "JarvisSystem", "JarvisTransport", "JarvisRemote", "JarvisScanners", "Jarvis",
                "JarvisTestSupport",
            ]),
        // The CLI's own logic (the MCP server's framing, URIs and schema checks), imported with
        // @testable from the executable.
        .testTarget(
            name: "JarvisWebTests",
            dependencies: [
                "JarvisWeb", "JarvisCore", "JarvisTransport", "JarvisRemote", "JarvisInspector", "JarvisScanners",
                "JarvisTestSupport",
            ]),
        .testTarget(
            name: "JarvisCLITests", dependencies: ["jarvis", "JarvisCore", "JarvisTransport", "JarvisRemote", "JarvisTestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "JarvisCore", "JarvisSystem", "JarvisTransport", "JarvisRemote", "JarvisScanners", "Jarvis", "JarvisDemo",
                "JarvisTestSupport", "jarvis", "jarvis-agent", "jarvis-bench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
