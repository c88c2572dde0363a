import Foundation

/// A DNS-SD TXT record (RFC 6763 §6): a sequence of strings, each one length byte then
/// `key=value`. Encoded and decoded here, on every platform, so the Apple files only hand
/// bytes to the system.
package enum BonjourTXTRecord {
    /// Why a record could not be made.
    package struct EncodingError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The record's bytes, keys sorted (so a record is the same bytes every time).
    /// - Throws: ``EncodingError`` for an empty key, a key with `=`, or a pair over 255 bytes.
    package static func encode(_ pairs: [String: String]) throws(EncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty, !key.contains("="), key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw EncodingError(description: "TXT key '\(key)' must be printable ASCII without '='")
            }
            let item = Array("\(key)=\(value)".utf8)
            guard item.count <= 255 else {
                throw EncodingError(description: "TXT entry '\(key)' is \(item.count) bytes; the limit is 255")
            }
            bytes.append(UInt8(item.count))
            bytes += item
        }
        // An empty record is one empty string, not zero bytes (RFC 6763 §6.1).
        return bytes.isEmpty ? [0] : bytes
    }

    /// The pairs of a record. Keys are compared case-insensitively (RFC 6763 §6.4), so they are
    /// returned lowercased; the first of repeated keys wins; a string without `=` is a key with
    /// an empty value; a length running past the end ends the record.
    package static func decode(_ bytes: [UInt8]) -> [String: String] {
        var pairs: [String: String] = [:]
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= bytes.count else { break }
            let item = bytes[index..<(index + length)]
            index += length
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let key = String(decoding: item[..<(equals ?? item.endIndex)], as: UTF8.self).lowercased()
            guard !key.isEmpty, pairs[key] == nil else { continue }
            pairs[key] = equals.map { String(decoding: item[item.index(after: $0)...], as: UTF8.self) } ?? ""
        }
        return pairs
    }
}
