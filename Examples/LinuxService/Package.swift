// swift-tools-version:6.0
import PackageDescription

// A Linux service that embeds the Jarvis agent, serves its config files and secret files, and
// stops cleanly on SIGTERM (as systemd stops it).
let package = Package(
    name: "LinuxService",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "Jarvis", path: "../..")],
    targets: [
        .executableTarget(
            name: "LinuxService",
            dependencies: [.product(name: "Jarvis", package: "Jarvis")]
        )
    ],
    swiftLanguageModes: [.v6]
)
