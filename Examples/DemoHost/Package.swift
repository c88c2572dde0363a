// swift-tools-version:6.0
import PackageDescription

// A host program that embeds the Jarvis agent the way an app would.
let package = Package(
    name: "DemoHost",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "Jarvis", path: "../..")],
    targets: [
        .executableTarget(
            name: "DemoHost",
            dependencies: [
                .product(name: "Jarvis", package: "Jarvis")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
