/// Writes JSON text, compact for the wire or pretty for files people read.
///
/// Compact output has no whitespace and never a raw newline byte, so one value is always
/// exactly one line of the line-delimited protocol. Object keys come out in stored order;
/// numbers come out as their stored text. Non-ASCII text stays UTF-8, except U+2028 and
/// U+2029, which are escaped because JavaScript treats them as line breaks.
///
/// Writing recurses once per nesting level; values from ``JSONParser`` are bounded by its
/// `maxDepth`.
public enum JSONWriter {
    /// Appends `value` as JSON text to `buffer`.
    ///
    /// - Parameter pretty: Two-space indentation with `"key": value`, as common formatters
    ///   write; empty containers stay `[]` and `{}`. No trailing newline either way.
    public static func write(_ value: JSONValue, into buffer: inout [UInt8], pretty: Bool = false) {
        if pretty {
            writePretty(value, into: &buffer, indent: 0)
        } else {
            writeCompact(value, into: &buffer)
        }
    }

    /// `value` as UTF-8 JSON text.
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        write(value, into: &buffer, pretty: pretty)
        return buffer
    }

    /// `value` as JSON text.
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    // MARK: - Layouts

    private static func writeCompact(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                writeCompact(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                writeCompact(member, into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        default:
            writeScalar(value, into: &buffer)
        }
    }

    private static func writePretty(_ value: JSONValue, into buffer: inout [UInt8], indent: Int) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            buffer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &buffer)
                writePretty(element, into: &buffer, indent: indent + 1)
            }
            newline(indent, into: &buffer)
            buffer.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            buffer.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1, into: &buffer)
                writeString(key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                buffer.append(UInt8(ascii: " "))
                writePretty(member, into: &buffer, indent: indent + 1)
            }
            newline(indent, into: &buffer)
            buffer.append(UInt8(ascii: "}"))
        default:
            writeCompact(value, into: &buffer)
        }
    }

    private static func newline(_ indent: Int, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeScalar(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            append("null", into: &buffer)
        case .bool(let flag):
            append(flag ? "true" : "false", into: &buffer)
        case .number(let number):
            buffer.append(contentsOf: number.text.utf8)
        case .string(let string):
            writeString(string, into: &buffer)
        case .array, .object:
            writeCompact(value, into: &buffer)
        }
    }

    private static func append(_ literal: StaticString, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    // MARK: - Strings

    /// Appends `text` as it is (JSON the caller wrote): a fixed piece of an answer, copied
    /// from the binary without the retain, release and lazy start a stored array costs.
    @inline(__always)
    package static func writeRaw(_ text: StaticString, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes a quoted, escaped string, copying runs that need no escaping in one go.
    package static func writeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        let handled: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeEscaped(utf8, into: &buffer)
        }
        if handled == nil {
            // Bridged or otherwise non-contiguous strings: copy once, then take the fast path.
            let utf8 = Array(string.utf8)
            utf8.withUnsafeBufferPointer { writeEscaped($0, into: &buffer) }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
        // Most strings need no escape at all: found eight bytes at a time, copied in one go.
        let plain = PlainByteScan.plainPrefixLength(UnsafeRawBufferPointer(utf8), stop: .writerEscapes)
        if plain == utf8.count {
            buffer.append(contentsOf: utf8)
            return
        }
        var runStart = 0
        var index = plain
        while index < utf8.count {
            let byte = utf8[index]
            let escapeLength: Int
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                guard byte == 0xE2, index + 2 < utf8.count, utf8[index + 1] == 0x80,
                    utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
                else {
                    index += 1
                    continue
                }
                escapeLength = 3
            } else {
                escapeLength = 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            appendEscape(for: utf8, at: index, into: &buffer)
            index += escapeLength
            runStart = index
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
    }

    private static func appendEscape(for utf8: UnsafeBufferPointer<UInt8>, at index: Int, into buffer: inout [UInt8]) {
        let byte = utf8[index]
        switch byte {
        case UInt8(ascii: "\""): append("\\\"", into: &buffer)
        case UInt8(ascii: "\\"): append("\\\\", into: &buffer)
        case UInt8(ascii: "\n"): append("\\n", into: &buffer)
        case UInt8(ascii: "\r"): append("\\r", into: &buffer)
        case UInt8(ascii: "\t"): append("\\t", into: &buffer)
        case 0x08: append("\\b", into: &buffer)
        case 0x0C: append("\\f", into: &buffer)
        case 0xE2:
            append(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", into: &buffer)
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            append("\\u00", into: &buffer)
            buffer.append(hexDigits.utf8Start[Int(byte >> 4)])
            buffer.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
