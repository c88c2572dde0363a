import JarvisCore
import JarvisRemote

/// How tool text shows what comes from storage or from other clients (container and key
/// names, a client's name, a problem's text): as data a model cannot mistake for the tool's
/// own words. A name is one JSON string, quoted, with its quotes and line breaks escaped, and
/// so are every control character, U+2028 and U+2029, every invisible format character (bidi
/// overrides, zero-width spaces) and `«` `»`, which delimit values: a key named
/// `theme = «"dark"» (string, revision 0…)` or holding a line break forges neither a value
/// nor a line.
extension MCPToolText {
    /// `text` as a quoted JSON string with every character that could pass for layout escaped,
    /// cut at `limit` characters (then ` …` follows the closing quote).
    static func quoted(_ text: String, limit: Int = 200) -> String {
        let cut = text.count > limit
        return escapingLayout(JSONWriter.string(.string(cut ? String(text.prefix(limit)) : text))) + (cut ? " …" : "")
    }

    /// Text of the agent's or this server's making that may quote names (an error message, a
    /// suggestion): kept as it reads, on one line, with its controls (line breaks included),
    /// invisible characters and `«` `»` escaped, so a name inside it forges no line.
    static func printable(_ text: String) -> String {
        escapingLayout(text, controls: true)
    }

    /// `scanner:"container" "key"`, or `scanner:"container" "/key/pointer"`.
    static func place(_ item: PreferenceItem) -> String {
        let key =
            item.pointer.map { JSONPointer(tokens: [item.address.key] + $0.tokens).description } ?? item.address.key
        return "\(item.address.scanner):\(quoted(item.address.container)) \(quoted(key))"
    }

    /// A client's name as history shows it: printable, at most 64 characters.
    static func clientName(_ name: String?) -> String {
        name.map { quoted($0, limit: 64) } ?? "an unnamed client"
    }

    /// Escapes, in text already written as JSON (or meant to be read as one line), what
    /// JSON leaves raw but a reader would take for layout: DEL and the C1 controls, format
    /// characters, line and paragraph separators, and `«` `»`.
    /// - Parameter controls: also escape the C0 controls, for text that is not JSON.
    static func escapingLayout(_ text: String, controls: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) || (controls && scalar.value < 0x20) else {
                result.append(scalar)
                continue
            }
            let units = scalar.value > 0xFFFF ? Array(String(scalar).utf16) : [UInt16(scalar.value)]
            for unit in units {
                let hex = String(unit, radix: 16)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(result)
    }

    /// The characters every face shows visibly (``VisibleText/isHidden(_:)``) that JSON leaves
    /// raw, and `«` `»`.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xAB || scalar.value == 0xBB || (scalar.value >= 0x20 && VisibleText.isHidden(scalar))
    }
}
