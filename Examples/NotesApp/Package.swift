// swift-tools-version:6.0
import PackageDescription

// A SwiftUI iOS app that embeds the Jarvis agent and the in-app panel in Debug builds only
// (docs/IOS.md). Open the folder in Xcode to read it; to run it on a phone, make an iOS app
// target as docs/IOS.md says and add these files. On Linux it builds a stub that says so.
let package = Package(
    name: "NotesApp",
    platforms: [.iOS(.v16), .macOS(.v13)],
    dependencies: [.package(name: "Jarvis", path: "../..")],
    targets: [
        .executableTarget(
            name: "NotesApp",
            dependencies: [
                .product(name: "Jarvis", package: "Jarvis"),
                .product(name: "JarvisUI", package: "Jarvis"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
