import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The scanner as a host uses it: registered on a hub, driven by addresses.
@Suite struct DefaultsScannerTests {
    private struct Window: Codable, Equatable {
        var width: Int
        var title: String
        var opened: Date
    }

    @Test func propertyListDataIsEditedInPlaceThroughTheHub() throws {
        let folder = try TemporaryFolder()
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let original = Window(width: 800, title: "Main", opened: sampleDate)
        try folder.writePlist(
            "app.plist", ["window": try encoder.encode(original), "plain": Data([1, 2])], format: .binary)
        let hub = JarvisHub()
        hub.register(.defaults(folder: folder.url))
        let address = PreferenceAddress(scanner: "defaults", container: "app", key: "window")

        let item = try hub.get(address)
        #expect(item.encoding == .propertyList)
        #expect(item.value == ["width": 800, "title": "Main", "opened": .date(sampleDate)])
        #expect(
            try hub.get(PreferenceAddress(scanner: "defaults", container: "app", key: "plain")).value
                == .data(Data([1, 2])))

        try hub.set(
            address, to: ["width": 1024, "title": "Main", "opened": .date(sampleDate)], expectedRevision: item.revision)
        let (object, format) = try folder.readPlist("app.plist")
        #expect(format == .binary)
        let stored = try #require((object as? [String: Any])?["window"] as? Data)
        #expect(EncodedData.propertyListFormat(of: stored) == .xml)
        #expect(try PropertyListDecoder().decode(Window.self, from: stored).width == 1024)
    }

    @Test func brokenFilesAreReportedByTheHub() throws {
        let folder = try TemporaryFolder()
        try Data("{ not: plist".utf8).write(to: folder.file("broken.plist"))
        try folder.writePlist("fine.plist", ["a": 1])
        let hub = JarvisHub()
        hub.register(.defaults(folder: folder.url))
        let result = try hub.list()
        #expect(result.items.map(\.address.key) == ["a"])
        #expect(result.problems.map(\.name) == ["broken"])
    }

    @Test func bothConstructorsMakeTheDefaultsScanner() {
        let inProcess: any PreferenceScanner = .defaults(suites: ["a"])
        let folder: any PreferenceScanner = .defaults(folder: URL(fileURLWithPath: NSTemporaryDirectory()))
        #expect(inProcess.id == "defaults")
        #expect(folder.id == "defaults")
        #expect(inProcess.info.isWritable && !inProcess.info.isSecret)
    }
}

/// File events map to suites without reading anything; other files in the folder are no suite.
@Suite struct DefaultsScannerChangedAtTests {
    @Test func onlyPlistFilesInTheFolderAreSuites() throws {
        let folder = try TemporaryFolder()
        let scanner: any PreferenceScanner = .defaults(folder: folder.url)
        #expect(
            scanner.containers(changedAt: folder.url.appendingPathComponent("com.example.a.plist").path) == [
                "com.example.a"
            ])
        #expect(
            scanner.containers(
                changedAt: folder.url.appendingPathComponent(".com.example.a.plist.1F2E.jarvis-tmp").path) == [])
        #expect(scanner.containers(changedAt: folder.url.appendingPathComponent("notes.txt").path) == [])
        #expect(scanner.containers(changedAt: "/elsewhere/com.example.a.plist") == nil)
    }
}
