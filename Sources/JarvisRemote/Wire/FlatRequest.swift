import Foundation
import JarvisCore

/// A request whose params hold only plain strings and booleans, read straight from the line's
/// bytes without building a JSON tree: the shape of nearly every `get` a client sends, read
/// for a fraction of what the full decoder costs.
///
/// The reader is a shortcut, never a second grammar: it accepts only lines that
/// ``RPCMessage/decode(_:rules:)`` under ``RPCMessage/Rules/agent`` reads as the very same
/// request, and answers nil for anything else — an escape or a byte outside printable ASCII
/// in a string, a number other than a plain whole id, a nested value, `null`, a repeated or
/// unknown member, a missing `"jsonrpc":"2.0"` — so the full decoder reads it and gives its
/// usual answer or error. Pure: tested against the full decoder over byte strings.
package enum FlatRequest {
    /// A param's value.
    package enum Scalar: Sendable, Hashable {
        case string(String)
        case bool(Bool)
    }

    /// A param's name: the names requests use, told apart by their bytes as they are read
    /// (comparing strings cost a `get` more than reading its line), or any other name.
    package enum Name: Sendable, Hashable {
        case scanner, container, key, pointer, reveal
        case other(String)
    }

    /// The members of a request object.
    private enum Member {
        case jsonrpc, id, method, params
    }

    /// Reads `line`, handing each param to `param` as it is read; `param` answers false to
    /// give the line up (a name it does not take, or takes a second time: the full decoder
    /// refuses a repeated member). The id (a string or a whole number: a notification is read
    /// the full way) and the method of a flat request; nil when the full decoder must read
    /// the line.
    package static func read(
        _ line: [UInt8], param: (_ name: Name, _ value: Scalar) -> Bool
    ) -> (id: JSONValue, method: String)? {
        line.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            return reader.request(param: param)
        }
    }

    /// A cursor over the line; every method answers nil (or false) at the first byte it does
    /// not expect.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func request(param: (Name, Scalar) -> Bool) -> (id: JSONValue, method: String)? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var id: JSONValue?
            var method: String?
            var version = false
            var params = false
            var first = true
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { break }
                guard first || take(UInt8(ascii: ",")) else { return nil }
                first = false
                guard let member = member(), take(UInt8(ascii: ":")) else { return nil }
                switch member {
                case .jsonrpc:
                    skipSpace()
                    guard !version, take(UInt8(ascii: "\"")), known("2.0") else { return nil }
                    version = true
                case .id:
                    guard id == nil, let read = requestID() else { return nil }
                    id = read
                case .method:
                    guard method == nil, let read = string() else { return nil }
                    method = read
                case .params:
                    guard !params, flatObject(param) else { return nil }
                    params = true
                }
            }
            skipSpace()
            guard at == bytes.count, version, let id, let method else { return nil }
            return (id, method)
        }

        /// `{"name": "text" | true | false, …}`, each member handed to `param`.
        mutating func flatObject(_ param: (Name, Scalar) -> Bool) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            var first = true
            while true {
                skipSpace()
                if take(UInt8(ascii: "}")) { return true }
                guard first || take(UInt8(ascii: ",")) else { return false }
                first = false
                guard let name = paramName(), take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                let value: Scalar
                if let text = string() {
                    value = .string(text)
                } else if word("true") {
                    value = .bool(true)
                } else if word("false") {
                    value = .bool(false)
                } else {
                    return false
                }
                guard param(name, value) else { return false }
            }
        }

        /// A string id, or a whole-number id of at most 15 digits written as JSON writes it.
        mutating func requestID() -> JSONValue? {
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "\"") { return string().map(JSONValue.string) }
            let start = at
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let digits = at
            var value: Int64 = 0
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                value = value * 10 + Int64(bytes[at] - UInt8(ascii: "0"))
                at += 1
                guard at - digits <= 15 else { return nil }
            }
            let count = at - digits
            // No digits, a leading zero, or a fraction or exponent next: the full decoder's.
            guard count > 0, count == 1 || bytes[digits] != UInt8(ascii: "0") else { return nil }
            if at < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[at]) {
                return nil
            }
            if digits > start, value == 0 { return nil }
            // The text as sent: a whole number without leading zeros, as JSON writes one.
            return .number(JSONNumber(checkedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)))
        }

        /// A request's member name: one of the four a request has, or nil (the full decoder
        /// refuses any other).
        mutating func member() -> Member? {
            skipSpace()
            guard take(UInt8(ascii: "\"")), at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "j"): return known("jsonrpc") ? .jsonrpc : nil
            case UInt8(ascii: "i"): return known("id") ? .id : nil
            case UInt8(ascii: "m"): return known("method") ? .method : nil
            case UInt8(ascii: "p"): return known("params") ? .params : nil
            default: return nil
            }
        }

        /// A param's name, told apart by its bytes when it is one requests use.
        mutating func paramName() -> Name? {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            if at + 1 < bytes.count {
                let mark = at
                at += 1
                switch bytes[at] {
                case UInt8(ascii: "s"): if known("scanner") { return .scanner }
                case UInt8(ascii: "c"): if known("container") { return .container }
                case UInt8(ascii: "k"): if known("key") { return .key }
                case UInt8(ascii: "p"): if known("pointer") { return .pointer }
                case UInt8(ascii: "r"): if known("reveal") { return .reveal }
                default: break
                }
                at = mark
            }
            return string().map(Name.other)
        }

        /// A string of printable ASCII without escapes; the values requests use most are not
        /// built again for every line.
        mutating func string() -> String? {
            skipSpace()
            guard take(UInt8(ascii: "\"")) else { return nil }
            if let known = knownWord() { return known }
            let start = at
            at += PlainByteScan.plainPrefixLength(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[at...])), stop: .printableASCIIWithoutEscapes)
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<at])
            at += 1
            return String(decoding: text, as: UTF8.self)
        }

        /// The method and the scanner most sent, when one of them and its closing quote come
        /// next: taken as the same strings every time, without scanning or building them.
        mutating func knownWord() -> String? {
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "g"): return known("get") ? "get" : nil
            case UInt8(ascii: "d"): return known("defaults") ? "defaults" : nil
            default: return nil
            }
        }

        /// Whether `word` and a closing quote are at the cursor; if so, the cursor moves past
        /// the quote.
        private mutating func known(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard let base = bytes.baseAddress, bytes.count - at > count, bytes[at + count] == UInt8(ascii: "\""),
                memcmp(base + at, word.utf8Start, count) == 0
            else { return false }
            at += count + 1
            return true
        }

        mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - at >= count else { return false }
            for offset in 0..<count where bytes[at + offset] != text.utf8Start[offset] { return false }
            at += count
            return true
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): at += 1
                default: return
                }
            }
        }
    }
}
