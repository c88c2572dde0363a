// swift-tools-version:6.0
import PackageDescription

// A host that writes its own scanner: feature flags served to `jarvis` in a few lines.
let package = Package(
    name: "CustomScanner",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "Jarvis", path: "../..")],
    targets: [
        .executableTarget(
            name: "CustomScanner",
            dependencies: [
                .product(name: "JarvisCore", package: "Jarvis"),
                .product(name: "JarvisRemote", package: "Jarvis"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
