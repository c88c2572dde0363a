import JarvisCore

extension RPCRequest {
    /// The `id` of a request line that cannot be read whole (cut off by the line limit, nested
    /// too deep, broken further on), from its first bytes, so that the error answers the
    /// request the client waits on.
    ///
    /// It walks the top-level object's members in order and stops at `id`; a value it cannot
    /// see whole (cut off by the prefix), or an id that is not a string or a number, ends the
    /// search with nil.
    package static func id(inPrefix prefix: [UInt8]) -> JSONValue? {
        var index = 0
        func skipSpace() {
            while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        }
        skipSpace()
        guard index < prefix.count, prefix[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipSpace()
            guard let keyRange = stringRange(prefix, from: index) else { return nil }
            let key = try? JSONParser.parse(prefix[keyRange])
            index = keyRange.upperBound
            skipSpace()
            guard index < prefix.count, prefix[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            guard let valueEnd = valueEnd(prefix, from: index) else { return nil }
            if key == .string("id") {
                guard let value = try? JSONParser.parse(prefix[index..<valueEnd]) else { return nil }
                switch value {
                case .string, .number: return value
                default: return nil
                }
            }
            index = valueEnd
            skipSpace()
            guard index < prefix.count, prefix[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// The bytes of the string starting at `from`, quotes included.
    private static func stringRange(_ bytes: [UInt8], from: Int) -> Range<Int>? {
        guard from < bytes.count, bytes[from] == UInt8(ascii: "\"") else { return nil }
        var index = from + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return from..<(index + 1)
            default: index += 1
            }
        }
        return nil
    }

    /// Where the value starting at `from` ends, when it ends inside the prefix.
    private static func valueEnd(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let range = stringRange(bytes, from: index) else { return nil }
                index = range.upperBound
                if depth == 0 { return index }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index }
                depth -= 1
                if depth == 0 { return index + 1 }
            case UInt8(ascii: ","):
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
