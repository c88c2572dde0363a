import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// Apple's own domains in a folder of real-looking preferences: hidden everywhere, as if
/// absent, unless the configuration includes them; a listing counts them.
@Suite struct SystemDomainsTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        for index in 0..<40 { try folder.writePlist("com.apple.domain\(index).plist", ["k": index]) }
        try folder.writePlist("com.apple.dock.plist", ["autohide": true])
        try folder.writePlist(".GlobalPreferences.plist", ["AppleLocale": "en_GB"])
        try folder.writePlist(".GlobalPreferences_m.plist", ["x": 1])
        for index in 0..<5 { try folder.writePlist("com.example.app\(index).plist", ["k": index]) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("innocent.plist").path, withDestinationPath: "com.apple.dock.plist")
    }

    func hub(including: Bool = false) -> JarvisHub {
        var configuration = JarvisConfiguration.debug
        configuration.includesSystemContainers = including
        let hub = JarvisHub(configuration: configuration)
        hub.register(DefaultsScanner.defaults(folder: folder.url))
        return hub
    }

    @Test func hiddenEverywhereAndCounted() throws {
        let hub = hub()
        let result = try hub.list()
        #expect(Set(result.items.map(\.address.container)) == Set((0..<5).map { "com.example.app\($0)" }))
        #expect(result.hiddenSystemContainers == 44)
        #expect(try hub.containers().count == 5)
        let dock = PreferenceAddress(scanner: "defaults", container: "com.apple.dock", key: "autohide")
        let missing = PreferenceAddress(scanner: "defaults", container: "com.example.absent", key: "autohide")
        let hidden = #expect(throws: JarvisError.self) { try hub.get(dock) }
        let absent = #expect(throws: JarvisError.self) { try hub.get(missing) }
        #expect(hidden?.code == absent?.code)
        #expect(throws: JarvisError.self) { try hub.set(dock, to: false) }
        #expect(throws: JarvisError.self) { try hub.delete(dock) }
        // A bulk delete finds nothing in it, as in a suite that is not there.
        #expect(try hub.delete(matching: "*", scanner: "defaults", container: "com.apple.dock").isEmpty)
        #expect(try hub.delete(matching: "*", scanner: "defaults", container: "com.example.absent").isEmpty)
        // Another spelling, and a link to a system domain, are hidden too.
        #expect(throws: JarvisError.self) {
            try hub.get(PreferenceAddress(scanner: "defaults", container: "COM.APPLE.dock", key: "autohide"))
        }
        #expect(throws: JarvisError.self) {
            try hub.get(PreferenceAddress(scanner: "defaults", container: "innocent", key: "autohide"))
        }
        #expect((try folder.readPlist("com.apple.dock.plist").object as? [String: Bool]) == ["autohide": true])
    }

    @Test func theConfigurationIncludesThem() throws {
        let hub = hub(including: true)
        let result = try hub.list()
        #expect(result.hiddenSystemContainers == 0)
        #expect(try hub.containers().count == 5 + 44)
        let dock = PreferenceAddress(scanner: "defaults", container: "com.apple.dock", key: "autohide")
        #expect(try hub.get(dock).value == true)
    }

    /// Names are compared without case: ASCII names take a byte path, any other name the
    /// Unicode lower-casing, and both must classify alike.
    @Test func systemNamesAreRecognizedWhateverTheirCase() {
        for name in [
            "com.apple.dock", "COM.APPLE.dock", "Com.Apple.Finder", ".GlobalPreferences", "NSGlobalDomain",
            "Apple Global Domain", "com.apple.d\u{F6}ck", "COM.APPLE.D\u{D6}CK", "NSGLOBALDOMAIN",
            ".globalpreferences.plist-extra", "com.apple.",
        ] {
            #expect(DefaultsSuite.isSystemDomain(name), "\(name)")
        }
        for name in [
            "com.applex", "com.example.app", "\u{C7}OM.APPLE.dock", "group.com.apple", "apple", "", "nsglobaldomainx",
            "apple global domain2", "com.apple", "ns global domain",
        ] {
            #expect(!DefaultsSuite.isSystemDomain(name), "\(name)")
        }
    }
}
