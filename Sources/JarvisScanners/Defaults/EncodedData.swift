import Foundation
import JarvisCore

/// Recognizes Codable values that apps store as `Data` (from `JSONEncoder` or
/// `PropertyListEncoder`) and encodes edited structures back the same way.
///
/// Only a top-level JSON object or array, or a property list whose top level is a dictionary
/// or an array, counts: that is what encoders write for a struct or a collection. Anything
/// else, or anything that would not convert back exactly (JSON `null`, integers beyond
/// `Int64`), stays plain data so that a write never changes bytes Jarvis did not understand.
enum EncodedData {
    /// The structure inside `data` and how it is encoded, or nil when it is just data; it may
    /// take what ``ExpansionBudget`` allows data of its size.
    static func decode(_ data: Data) -> (value: PreferenceValue, encoding: ValueEncoding)? {
        var budget = ExpansionBudget(fileSize: data.count)
        return decode(data, budget: &budget)
    }

    /// The structure inside `data` and how it is encoded, or nil when it is just data, would
    /// take more than data of its size may on its own (a property list's own budget), or more
    /// than is left of `budget` (which then ``ExpansionBudget/isPassed``):
    /// what the structure takes in memory is charged against the budget of the read that
    /// found the data, each time data is decoded.
    static func decode(_ data: Data, budget: inout ExpansionBudget) -> (
        value: PreferenceValue, encoding: ValueEncoding
    )? {
        if looksLikeJSON(data),
            let json = try? JSONParser.parse([UInt8](data), maxDepth: PreferenceValue.maxDepth, budget: &budget),
            let value = try? PreferenceValue(plainJSON: json), value.type.isContainer
        {
            return (value, .json)
        }
        if !budget.isPassed, propertyListFormat(of: data) != nil,
            let read = try? PropertyListCodec.read([UInt8](data), budget: &budget),
            case (let value, true) = read.value.preferenceValue, value.type.isContainer
        {
            return (value, .propertyList)
        }
        return nil
    }

    /// The bytes to store for a value that was shown decoded from `encoding`.
    /// - Parameter current: the stored object, whose property-list format (XML or binary) is kept.
    /// - Throws: ``JarvisError`` `.typeMismatch` when the value cannot be encoded that way.
    static func encode(
        _ value: PreferenceValue, as encoding: ValueEncoding, current: Any?, key: String
    ) throws(JarvisError) -> Data {
        switch value {
        case .array, .dictionary: break
        default:
            throw JarvisError(
                .typeMismatch,
                "'\(key)' holds \(encoding == .json ? "JSON" : "property-list") data for an array or dictionary; send one of those, or data to replace the bytes"
            )
        }
        switch encoding {
        case .json:
            return Data(JSONWriter.bytes(try value.plainJSON(path: key)))
        case .propertyList:
            let format: PropertyList.Format =
                (current as? Data).flatMap(propertyListFormat(of:)) == .xml ? .xml : .binary
            do {
                return Data(try PropertyListCodec.write(try PropertyList(value, path: key), as: format))
            } catch {
                throw JarvisError(.typeMismatch, "'\(key)' cannot be encoded as a property list: \(error.message)")
            }
        }
    }

    /// The format of property-list bytes, judged from how they start; nil when they are not
    /// one (Foundation's enum, which callers encoding with `PropertyListEncoder` compare with).
    static func propertyListFormat(of data: Data) -> PropertyListSerialization.PropertyListFormat? {
        if data.starts(with: Array("bplist00".utf8)) { return .binary }
        // Most data is neither: one look at the first byte that is not whitespace decides.
        guard data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else { return nil }
        let head = String(decoding: data.prefix(64), as: UTF8.self).drop(while: \.isWhitespace)
        if head.hasPrefix("<?xml") || head.hasPrefix("<plist") || head.hasPrefix("<!DOCTYPE plist") {
            return .xml
        }
        return nil
    }

    private static func looksLikeJSON(_ data: Data) -> Bool {
        let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

}
