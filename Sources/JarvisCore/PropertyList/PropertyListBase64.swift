/// Base64 for `<data>` elements, with the line layout Apple's and `plistlib`'s writers use.
enum PropertyListBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Decodes base64 text, skipping whitespace; nil when it holds anything else or is cut short.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let value = values[Int(byte)]
            guard value != 0xFF, padding == 0 else { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                out += [
                    UInt8(truncatingIfNeeded: group >> 16), UInt8(truncatingIfNeeded: group >> 8),
                    UInt8(truncatingIfNeeded: group),
                ]
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 0: break
        case 2: out.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        default: return nil
        }
        return out
    }

    /// Encodes bytes as base64 lines of at most `lineLength` characters (a multiple of 4 is
    /// used, as `binascii` does), each ended by a line feed.
    static func encodeLines(_ bytes: [UInt8], lineLength: Int) -> [String] {
        let perLine = max(1, lineLength / 4) * 3
        var lines: [String] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + perLine)
            lines.append(encode(bytes[start..<end]))
            start = end
        }
        return lines
    }

    /// Encodes bytes as one base64 text.
    static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let remaining = bytes.endIndex - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(remaining > 1 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "="))
            index += min(3, remaining)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
