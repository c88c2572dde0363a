/// Writes an XML property list as Apple's and Python's `plistlib` writers do: their header,
/// one element per line, a tab per level, `<data>` as base64 lines at the element's own
/// indentation, empty containers as `<dict/>` and `<array/>`. Keys keep their order.
///
/// What XML cannot hold exactly is refused, not written damaged: text with characters
/// XML 1.0 forbids (most control characters) and dates outside the years 0001 to 9999.
/// A carriage return is written as `&#13;`, which every XML parser reads back as one.
struct XMLPropertyListWriter {
    /// The text before the top-level value.
    static let header = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
    /// The text after the top-level value.
    static let footer = Array("</plist>\n".utf8)

    /// One level of indentation (a tab, as Apple writes; a file's own when editing one).
    var indent: [UInt8] = [0x09]
    private(set) var out: [UInt8] = []

    /// The whole document for `value`.
    static func bytes(_ value: PropertyList) throws(PropertyListError) -> [UInt8] {
        var writer = XMLPropertyListWriter()
        writer.out = header
        try writer.write(value, level: 0)
        writer.out += footer
        return writer.out
    }

    /// Writes `value` starting at the current position, its opening tag already indented, its
    /// inner lines at `level + 1`; ends with a line feed.
    mutating func write(_ value: PropertyList, level: Int) throws(PropertyListError) {
        switch value {
        case .string(let text):
            out += Array("<string>".utf8)
            try escape(text)
            out += Array("</string>\n".utf8)
        case .integer(let integer): line("<integer>\(integer)</integer>")
        case .unsigned(let integer): line("<integer>\(integer)</integer>")
        case .real(let real): line("<real>\(Self.text(real))</real>")
        case .boolean(let boolean): line(boolean ? "<true/>" : "<false/>")
        case .date(let seconds):
            guard let text = PropertyListDate.text(seconds) else {
                throw PropertyListError(
                    .unsupported,
                    "a date outside the years 0001 to 9999 cannot be written in an XML property list (YYYY-MM-DDThh:mm:ssZ)"
                )
            }
            line("<date>\(text)</date>")
        case .data(let data):
            out += Array("<data>\n".utf8)
            let columns = indent.reduce(0) { $0 + ($1 == 0x09 ? 8 : 1) }
            let width = max(16, 76 - columns * level)
            for text in PropertyListBase64.encodeLines(data, lineLength: width) {
                pad(level)
                line(text)
            }
            pad(level)
            line("</data>")
        case .uid(let uid):
            // How `plutil` and Foundation show a UID in XML; read back, it is a dictionary.
            try write(.dictionary([PropertyList.Member("CF$UID", .integer(unsigned: uid))]), level: level)
        case .array(let elements):
            guard !elements.isEmpty else { return line("<array/>") }
            line("<array>")
            for element in elements {
                pad(level + 1)
                try write(element, level: level + 1)
            }
            pad(level)
            line("</array>")
        case .dictionary(let members):
            guard !members.isEmpty else { return line("<dict/>") }
            line("<dict>")
            for member in members {
                try writeMember(member, level: level + 1)
            }
            pad(level)
            line("</dict>")
        }
    }

    /// `<key>…</key>` and its value, each on its own line at `level`.
    mutating func writeMember(_ member: PropertyList.Member, level: Int) throws(PropertyListError) {
        pad(level)
        out += Array("<key>".utf8)
        try escape(member.key)
        out += Array("</key>\n".utf8)
        pad(level)
        try write(member.value, level: level)
    }

    private mutating func pad(_ level: Int) {
        for _ in 0..<level { out += indent }
    }

    private mutating func line(_ text: String) {
        out += text.utf8
        out.append(0x0A)
    }

    /// A real as Swift prints it shortest (`1.5`, `1e+100`), with Apple's names for the rest.
    static func text(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return real.description
    }

    /// Appends text with `&`, `<`, `>` and a carriage return escaped, byte by byte over its
    /// UTF-8 (most text needs no escape and is copied as it is).
    private mutating func escape(_ text: String) throws(PropertyListError) {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x09, 0x0A, 0x20...0x7F, 0x80...0xEE, 0xF0...0xFF: out.append(byte)
            case 0xEF:
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are the only characters above ASCII that
                // XML 1.0 forbids (Swift strings hold no lone surrogates).
                let next = utf8.index(after: index)
                let last = next == utf8.endIndex ? next : utf8.index(after: next)
                if next != utf8.endIndex, last != utf8.endIndex, utf8[next] == 0xBF, utf8[last] >= 0xBE {
                    throw Self.illegal(utf8[last] == 0xBE ? 0xFFFE : 0xFFFF)
                }
                out.append(byte)
            default:
                throw Self.illegal(UInt32(byte))
            }
            index = utf8.index(after: index)
        }
    }

    private static func illegal(_ value: UInt32) -> PropertyListError {
        let code = String(value, radix: 16, uppercase: true)
        return PropertyListError(
            .unsupported,
            "text holds U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code), which XML 1.0 cannot hold; store it as data, or use a binary property list"
        )
    }
}
