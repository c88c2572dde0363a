/// Turns the bytes of raw terminal input into keys: plain UTF-8 text, control bytes, and the
/// escape sequences of xterm-style terminals (CSI `ESC [` and SS3 `ESC O`).
///
/// A lone `ESC` is ambiguous: it may be the Escape key or the start of a sequence split across
/// reads. `decode` leaves it pending; the caller waits briefly for more input and calls
/// `flushEscape()` if none comes.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Whether a lone `ESC` (or an unfinished sequence) waits for more bytes.
    var hasPending: Bool { !pending.isEmpty }

    /// Adds bytes and returns the complete keys they finish.
    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decodeOne(pending, at: index) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Gives up waiting: what is pending becomes Escape (and whatever followed it).
    mutating func flushEscape() -> [Key] {
        guard !pending.isEmpty else { return [] }
        let rest = Array(pending.dropFirst())
        pending = []
        return [.escape] + decode(rest)
    }

    /// One key at `index`, with how many bytes it used; nil when more bytes are needed.
    private static func decodeOne(_ bytes: [UInt8], at index: Int) -> (Key, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            return decodeEscape(bytes, at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (.unknown, 1)
        default:
            return decodeText(bytes, at: index)
        }
    }

    private static func decodeText(_ bytes: [UInt8], at index: Int) -> (Key, Int)? {
        let byte = bytes[index]
        let length: Int
        switch byte {
        case 0x00..<0x80: length = 1
        case 0xC0..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF8: length = 4
        default: return (.unknown, 1)
        }
        guard index + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
        guard let character = text.first, text != "\u{FFFD}" else { return (.unknown, length) }
        return (.character(character), length)
    }

    private static func decodeEscape(_ bytes: [UInt8], at index: Int) -> (Key, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let introducer = bytes[index + 1]
        if introducer == 0x1B { return (.escape, 1) }
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            // Alt plus a key: treat as Escape followed by that key.
            return (.escape, 1)
        }
        // CSI: parameters (0x30–0x3F), intermediates (0x20–0x2F), one final byte (0x40–0x7E).
        var end = index + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let final = bytes[end]
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        switch final {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "C"): return (.right, length)
        case UInt8(ascii: "D"): return (.left, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first ?? "" {
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            case "3": return (.delete, length)
            case "5": return (.pageUp, length)
            case "6": return (.pageDown, length)
            default: return (.unknown, length)
            }
        default:
            return (.unknown, length)
        }
    }
}
