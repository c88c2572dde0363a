import Foundation
import Testing

/// Apple requires an SDK that calls a "required reason" API to declare why in a
/// `PrivacyInfo.xcprivacy` it ships as a resource. Every library target whose sources call one
/// of the APIs Jarvis uses must carry the manifest, declared as a resource, with the category.
@Suite struct PrivacyManifestTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Calls that fall under a category (Apple's "Describing use of required reason API").
    static let categories: [(category: String, calls: [String])] = [
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults(", "UserDefaults.standard"]),
        (
            "NSPrivacyAccessedAPICategoryFileTimestamp",
            [
                "lstat(", "fstat(", "fstatat(", " stat(", "= stat(", ".modificationDate", ".creationDate",
                "contentModificationDateKey", "creationDateKey", "getattrlist",
            ]
        ),
    ]

    /// The library targets an app links (executables and the demo never ship in one).
    static let libraries = [
        "JarvisCore", "JarvisSystem", "JarvisScanners", "JarvisTransport", "JarvisRemote", "Jarvis", "JarvisInspector",
        "JarvisUI",
    ]

    @Test(arguments: libraries) func aLibraryThatCallsARequiredReasonAPIDeclaresIt(_ target: String) throws {
        let folder = Self.root.appendingPathComponent("Sources/\(target)")
        var sources = ""
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            // Only code: a doc comment that names an API is not a call.
            let text = try String(contentsOf: file, encoding: .utf8)
            sources += text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
        }
        let needed = Self.categories.filter { entry in entry.calls.contains { sources.contains($0) } }.map(\.category)
        let manifest = folder.appendingPathComponent("PrivacyInfo.xcprivacy")
        guard !needed.isEmpty else {
            #expect(!FileManager.default.fileExists(atPath: manifest.path), "\(target) declares APIs it does not call")
            return
        }
        let data = try Data(contentsOf: manifest)
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        let declared = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        for category in needed {
            let entry = declared.first { $0["NSPrivacyAccessedAPIType"] as? String == category }
            let reasons = entry?["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
            #expect(!reasons.isEmpty, "\(target) calls \(category) APIs without declaring a reason")
        }
        // Declared as a resource of that target, so Xcode bundles it.
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(package.range(of: "name: \"\(target)\", dependencies"))
        let rest = package[declaration.upperBound...]
        let nextTarget = rest.range(of: ".target(")?.lowerBound ?? rest.endIndex
        #expect(rest[..<nextTarget].contains(".copy(\"PrivacyInfo.xcprivacy\")"))
    }
}
