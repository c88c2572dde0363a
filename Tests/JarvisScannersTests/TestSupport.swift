import Foundation
import JarvisCore

/// A temporary folder removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jarvis-test-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: false)
    }

    /// Writes a property list file the way another program would.
    func writePlist(_ name: String, _ object: Any, format: PropertyListSerialization.PropertyListFormat = .xml) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
        try data.write(to: file(name))
    }

    func readPlist(_ name: String) throws -> (object: Any, format: PropertyListSerialization.PropertyListFormat) {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: file(name)), options: [], format: &format)
        return (object, format)
    }
}

/// Whole seconds, because XML property lists store dates to the second.
let sampleDate = Date(timeIntervalSince1970: 1_700_000_000)

/// One value of every type, nested, for round trips.
let everyType: PreferenceValue = [
    "string": "héllo \"quoted\"",
    "integer": 1,
    "negative": -9_223_372_036_854_775_808,
    "real": 1.0,
    "fraction": 0.25,
    "true": true,
    "false": false,
    "date": .date(sampleDate),
    "data": .data(Data([0, 1, 2, 255])),
    "array": [1, 1.0, true, "one", .date(sampleDate), .data(Data([7])), [["deep": false]]],
    "dictionary": ["nested": ["when": .date(sampleDate), "bytes": .data(Data()), "list": []]],
]

extension Array where Element == ScannedEntry {
    subscript(key key: String) -> ScannedEntry? {
        first { $0.key == key }
    }
}
