/// The one rule for showing text that comes from other programs and people: keys, values,
/// container, scanner, device, agent and client names.
///
/// Such text may hold characters a screen obeys instead of showing: a terminal's escape
/// sequences and carriage returns, line and paragraph separators (U+2028, U+2029), bidi
/// embeddings, overrides, isolates and marks (U+202A–202E, U+2066–2069, U+200E, U+200F,
/// U+061C) that turn `invoice\u{202E}gnp.exe` into "invoice" followed by "exe.png" read
/// backwards, and zero-width characters (U+200B–200D, U+2060, U+FEFF) that make two
/// different keys look alike. Every face writes them visibly through this rule: `jarvis`'s
/// line-mode commands and terminal inspector, `jarvis-agent`, the inspector model's rows
/// (so the browser inspector and the in-app panel), and `jarvis mcp` (which writes them as
/// JSON escapes). What is copied or sent back stays the real text.
package enum VisibleText {
    /// `text` with every hidden character (``isHidden(_:)``) written visibly: `\n`, `\r`,
    /// `\t`, `\xHH` for the other C0 controls and DEL, and `\u{HH}` (at least two hex digits) for the rest. Other
    /// text, backslashes included, is unchanged, so ordinary text reads exactly as stored.
    package static func escaped(_ text: String) -> String {
        // Most names and values are printable ASCII: they cost one pass over their bytes.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }), text.unicodeScalars.contains(where: isHidden)
        else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isHidden(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: shown(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// A message of several lines, each escaped: its own line breaks stay, every other
    /// hidden character (a CR, an escape sequence, a bidi override) is shown, not obeyed.
    package static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            .joined(separator: "\n")
    }

    /// JSON text (as ``JSONWriter`` writes it) with every hidden character JSON leaves raw
    /// written as a `\uHHHH` escape: still valid JSON that reads back as the same value, but
    /// a bidi override or a zero-width space inside a string shows instead of acting.
    package static func escapedJSON(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 >= 0x7F }), json.unicodeScalars.contains(where: isHidden) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard isHidden(scalar) else {
                out.append(scalar)
                continue
            }
            let units = scalar.value > 0xFFFF ? Array(String(scalar).utf16) : [UInt16(scalar.value)]
            for unit in units { out.append(contentsOf: ("\\u" + hex(UInt32(unit), digits: 4).lowercased()).unicodeScalars) }
        }
        return String(out)
    }

    /// Whether a screen would act on the scalar, or show nothing for it, instead of showing
    /// it: the C0 controls, DEL, the C1 controls, the line and paragraph separators, and
    /// every invisible format character (bidi controls, zero-width characters, the byte
    /// order mark, soft hyphen, …).
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: return false
        case 0...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
            default: return false
            }
        }
    }

    /// How one hidden scalar is written.
    private static func shown(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0...0x1F, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        default: return "\\u{" + hex(scalar.value, digits: 2) + "}"
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
