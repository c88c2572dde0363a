/// String decoding: a fast path that turns escape-free strings straight into `String`s, and
/// a slower one that decodes escapes into a reused scratch buffer. Both validate UTF-8
/// themselves, because `String(decoding:)` would silently replace bad bytes.
extension JSONReader {
    /// Reads a string starting at its opening quote and moves past the closing one.
    mutating func readString() throws(JSONParseError) -> String {
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                return try readEscapedString(from: start, firstEscape: index)
            } else if byte < 0x20 {
                throw controlCharacterError(byte, at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try endOfUTF8Sequence(at: index)
            }
        }
        throw error("unterminated string; add the closing '\"'", at: position)
    }

    /// Finishes a string that contains escapes, copying unescaped runs in bulk.
    private mutating func readEscapedString(from start: Int, firstEscape: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<firstEscape]))
        var index = firstEscape
        var runStart = firstEscape
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index = try decodeEscape(at: index)
                runStart = index
            } else if byte < 0x20 {
                throw controlCharacterError(byte, at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try endOfUTF8Sequence(at: index)
            }
        }
        throw error("unterminated string; add the closing '\"'", at: start - 1)
    }

    /// Decodes the escape whose backslash is at `index` into `scratch`; returns the index after it.
    private mutating func decodeEscape(at index: Int) throws(JSONParseError) -> Int {
        guard index + 1 < bytes.count else {
            throw error("unterminated escape at end of input", at: index)
        }
        let decoded: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = UInt8(ascii: "\n")
        case UInt8(ascii: "r"): decoded = UInt8(ascii: "\r")
        case UInt8(ascii: "t"): decoded = UInt8(ascii: "\t")
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: index)
        case let other:
            let shown = other >= 0x21 && other < 0x7F ? "'\\\(Character(Unicode.Scalar(other)))'" : describe(other)
            throw error(
                "invalid escape \(shown) after a backslash; "
                    + "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
                at: index
            )
        }
        scratch.append(decoded)
        return index + 2
    }

    /// Decodes `\uXXXX`, or a `\uD8xx\uDCxx` surrogate pair, at `index`.
    private mutating func decodeUnicodeEscape(at index: Int) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: index + 2)
        var scalarValue = UInt32(unit)
        var end = index + 6
        switch unit {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u")
            else {
                throw error(
                    "lone high surrogate \\u\(hex(unit)); "
                        + "it must be followed by a low surrogate escape \\uDC00-\\uDFFF",
                    at: index
                )
            }
            let low = try hexQuad(at: end + 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(
                    "lone high surrogate \\u\(hex(unit)); "
                        + "it is followed by \\u\(hex(low)), not a low surrogate \\uDC00-\\uDFFF",
                    at: index
                )
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw error("lone low surrogate \\u\(hex(unit)) without a high surrogate before it", at: index)
        default:
            break
        }
        appendUTF8(scalarValue)
        return end
    }

    /// Reads four hex digits at `index`.
    private func hexQuad(at index: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard index + offset < bytes.count else {
                throw error("expected four hex digits after \\u, found end of input", at: index + offset)
            }
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("expected four hex digits after \\u, found \(describe(byte))", at: index + offset)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private func controlCharacterError(_ byte: UInt8, at index: Int) -> JSONParseError {
        if byte == 0 {
            return error("NUL byte inside a string; write it as \\u0000", at: index)
        }
        let escape: String
        switch byte {
        case UInt8(ascii: "\n"): escape = "\\n"
        case UInt8(ascii: "\r"): escape = "\\r"
        case UInt8(ascii: "\t"): escape = "\\t"
        default: escape = "\\u00" + String(describe(byte).suffix(2))
        }
        return error(
            "unescaped control character (\(describe(byte))) inside a string; write it as \(escape)",
            at: index
        )
    }

    /// Checks the multi-byte UTF-8 sequence starting at `index` (RFC 3629: no overlong forms,
    /// no surrogates, nothing past U+10FFFF) and returns the index after it.
    private func endOfUTF8Sequence(at index: Int) throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0xC0, 0xC1:
            throw error("invalid UTF-8: overlong encoding starting with \(describe(lead))", at: index)
        default:
            throw error("invalid UTF-8: \(describe(lead)) cannot start a character", at: index)
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else {
                throw error("invalid UTF-8: truncated character at end of input", at: index)
            }
            let byte = bytes[index + offset]
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(byte) else {
                throw error("invalid UTF-8: \(describe(byte)) cannot follow \(describe(lead)) here", at: index + offset)
            }
        }
        return index + length
    }
}
