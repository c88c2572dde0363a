// swift-tools-version:6.0
import PackageDescription

// A macOS app that lists the running Jarvis agents (local programs and Simulator apps) and
// shows the in-app panel (JarvisUI) for the one chosen, over its socket.
let package = Package(
    name: "AgentBrowser",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "Jarvis", path: "../..")],
    targets: [
        .executableTarget(
            name: "AgentBrowser",
            dependencies: [
                .product(name: "JarvisCore", package: "Jarvis"),
                .product(name: "JarvisRemote", package: "Jarvis"),
                .product(name: "JarvisInspector", package: "Jarvis"),
                .product(name: "JarvisUI", package: "Jarvis"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
