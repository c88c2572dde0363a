import Foundation
import JarvisCore

/// One JSON config file as read from disk: its top-level object in file order, and enough
/// about its layout to write it back the same way (pretty or one line, final newline or not).
struct JSONFileDocument {
    /// The largest file the scanner reads; a config file bigger than this is reported, not read.
    static let maxSize = 16 << 20

    /// The top-level members, in file order.
    var object: JSONObject
    /// Whether the file spans several lines: it is written back pretty-printed, two spaces.
    var isMultiLine: Bool
    /// Whether the file ended with a newline.
    var endsWithNewline: Bool

    /// Parses file contents.
    /// - Throws: ``JarvisError`` `.storage` with the parse error and its line, or when the top
    ///   level is not an object.
    init(bytes: [UInt8]) throws(JarvisError) {
        guard bytes.count <= Self.maxSize else {
            throw JarvisError(.storage, "the file is larger than \(Self.maxSize >> 20) MiB; Jarvis does not read it")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw JarvisError(
                .storage, "not valid JSON: \(error.description); fix the file (Jarvis never writes over it)")
        }
        guard case .object(let object) = json else {
            throw JarvisError(
                .storage,
                "the top level is \(Self.kind(json)), not an object; Jarvis shows JSON files whose top level is an object of keys"
            )
        }
        self.object = object
        var end = bytes.count
        while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        isMultiLine = bytes[..<end].contains(0x0A)
        endsWithNewline = bytes.last == 0x0A
    }

    /// The text to write back: the same layout, members in the same order.
    func render() -> [UInt8] {
        var output = JSONWriter.bytes(.object(object), pretty: isMultiLine)
        if endsWithNewline { output.append(0x0A) }
        return output
    }

    /// The entries the scanner reports for the top-level members.
    func entries() -> [ScannedEntry] {
        object.map { key, value in
            let (converted, isExact) = JSONFileValue.preferenceValue(value)
            return ScannedEntry(key: key, value: converted, isWritable: isExact, isExact: isExact)
        }
    }

    private static func kind(_ json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
