/// Reads an XML property list: the elements of Apple's DTD, comments, processing
/// instructions, a DOCTYPE, character references and CDATA sections.
///
/// Strict where a guess could change a value (an integer beyond 64 bits, text that is not
/// UTF-8, two keys that are one name), and never trapping: nesting is bounded by
/// ``PropertyListLimits/maxDepth``, and what the values take in memory (each value's cost,
/// its text or data by their bytes, a container's references) by the file's budget,
/// ``PropertyListLimits/budget(for:)``, as a binary file's is.
/// For the top-level dictionary it notes where each key and value sit in the bytes
/// (``XMLPropertyListLayout``), so one key can be changed without writing the rest again.
struct XMLPropertyListReader {
    let bytes: [UInt8]
    private let limits: PropertyListLimits
    private(set) var position = 0
    /// What the values read so far take in memory (``expandedSize``).
    private var spent = 0
    /// What the values may take: ``PropertyListLimits/budget(for:)`` of the file's size.
    private let budget: Int
    /// Where the top-level dictionary's entries sit, when the top level is a dictionary.
    private(set) var layout: XMLPropertyListLayout?

    init(_ bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
        budget = limits.budget(for: bytes.count)
    }

    /// What the values read so far take in memory, counted as a binary file's are measured.
    var expandedSize: Int { spent }

    /// Reads the whole document: prolog, `<plist>` (optional) and one value.
    mutating func read() throws(PropertyListError) -> PropertyList {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMisc()
        var wrapped = false
        if starts("<plist") {
            let (name, selfClosing) = try openTag()
            guard name == "plist", !selfClosing else { throw damaged("an empty <plist/> holds no value") }
            wrapped = true
        }
        let value = try readValue(depth: 0)
        if wrapped {
            try skipMisc()
            try closeTag("plist")
        }
        try skipMisc()
        guard position == bytes.count else { throw damaged("text follows the end of the property list") }
        return value
    }

    /// Reads one value that starts at the current position (after whitespace and comments),
    /// for a fragment such as the bytes just written for one key.
    mutating func readFragment() throws(PropertyListError) -> PropertyList {
        try readValue(depth: 0)
    }

    /// Moves to `offset` (clamped to the bytes), to read a fragment there.
    mutating func skip(to offset: Int) {
        position = min(max(0, offset), bytes.count)
    }

    // MARK: - Values

    private mutating func readValue(depth: Int) throws(PropertyListError) -> PropertyList {
        try skipMisc()
        let start = position
        let (name, selfClosing) = try openTag()
        try charge(PropertyListLimits.objectCost)
        switch name {
        case "dict":
            return try readDictionary(start: start, selfClosing: selfClosing, depth: depth)
        case "array":
            guard !selfClosing else { return .array([]) }
            guard depth < limits.maxDepth else { throw tooDeep() }
            var elements: [PropertyList] = []
            while true {
                try skipMisc()
                if starts("</") {
                    try closeTag("array")
                    return .array(elements)
                }
                elements.append(try readValue(depth: depth + 1))
                try charge(8)
            }
        case "string":
            return .string(selfClosing ? "" : try text(closing: "string"))
        case "true", "false":
            if !selfClosing { try closeTag(name) }
            return .boolean(name == "true")
        case "integer":
            let (text, at) = try plainText(closing: "integer", selfClosing: selfClosing)
            guard let value = Self.integer(text) else {
                throw damaged("'\(String(decoding: text, as: UTF8.self))' is not an integer of at most 64 bits", at: at)
            }
            return value
        case "real":
            let (text, at) = try plainText(closing: "real", selfClosing: selfClosing)
            guard let value = Self.real(text) else {
                throw damaged("'\(String(decoding: text, as: UTF8.self))' is not a real number", at: at)
            }
            return .real(value)
        case "date":
            let (text, at) = try plainText(closing: "date", selfClosing: selfClosing)
            guard let value = PropertyListDate.seconds(text) else {
                throw damaged("'\(String(decoding: text, as: UTF8.self))' is not a date (YYYY-MM-DDThh:mm:ssZ)", at: at)
            }
            return .date(value)
        case "data":
            let (text, at) = try plainText(closing: "data", selfClosing: selfClosing)
            guard let value = PropertyListBase64.decode(text) else {
                throw damaged("a <data> element is not base64", at: at)
            }
            try charge(value.count)
            return .data(value)
        default:
            throw damaged("<\(name)> is not a property-list element", at: start)
        }
    }

    private mutating func readDictionary(start: Int, selfClosing: Bool, depth: Int) throws(PropertyListError)
        -> PropertyList
    {
        let top = depth == 0
        if top { layout = XMLPropertyListLayout(dictionaryStart: start) }
        guard !selfClosing else {
            if top { layout?.closeTag = nil }
            return .dictionary([])
        }
        guard depth < limits.maxDepth else { throw tooDeep() }
        var members: [PropertyList.Member] = []
        var seen = Set<String>()
        while true {
            try skipMisc()
            let keyStart = position
            if starts("</") {
                try closeTag("dict")
                if top { layout?.closeTag = keyStart }
                return .dictionary(members)
            }
            let (name, empty) = try openTag()
            guard name == "key" else { throw damaged("<\(name)> where a dictionary needs a <key>", at: keyStart) }
            let key = empty ? "" : try text(closing: "key")
            guard seen.insert(key).inserted else {
                throw PropertyListError(
                    .duplicateKey,
                    "a dictionary holds the key '\(key)' twice (written the same, or in two Unicode spellings of one name)",
                    offset: keyStart)
            }
            try skipMisc()
            let valueStart = position
            let value = try readValue(depth: depth + 1)
            if top {
                layout?.entries.append(
                    XMLPropertyListLayout.Entry(keyStart: keyStart, valueStart: valueStart, valueEnd: position))
            }
            members.append(PropertyList.Member(key, value))
            try charge(24)
        }
    }

    // MARK: - Tags

    private func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        return text.withUTF8Buffer { buffer in
            for index in 0..<count where bytes[position + index] != buffer[index] { return false }
            return true
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private mutating func skipSpace() {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
    }

    /// Skips whitespace, comments, processing instructions and a DOCTYPE.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipSpace()
            if starts("<!--") {
                try skip(past: "-->", from: position + 4, what: "a comment")
            } else if starts("<?") {
                try skip(past: "?>", from: position + 2, what: "a processing instruction")
            } else if starts("<!DOCTYPE") {
                // An internal subset could declare entities; property lists have none.
                guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else {
                    throw damaged("the DOCTYPE is not closed")
                }
                guard !bytes[position..<end].contains(UInt8(ascii: "[")) else {
                    throw damaged("the DOCTYPE declares an internal subset, which property lists do not have")
                }
                position = end + 1
            } else {
                return
            }
        }
    }

    private mutating func skip(past end: StaticString, from start: Int, what: String) throws(PropertyListError) {
        position = start
        while position < bytes.count {
            if starts(end) {
                position += end.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw damaged("\(what) is not closed")
    }

    /// `<name attributes…>` or `<name …/>`: the name and whether it closed itself.
    private mutating func openTag() throws(PropertyListError) -> (String, Bool) {
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw position < bytes.count
                ? damaged("text where an element was expected") : damaged("the file ends where a value was expected")
        }
        position += 1
        let nameStart = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw damaged("a '<' that starts no element", at: start) }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (name, bytes[position - 2] == UInt8(ascii: "/"))
            } else if byte == UInt8(ascii: "<") {
                break
            }
        }
        throw damaged("the tag <\(name)> is not closed", at: start)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    /// `</name>`, with optional whitespace before the `>`.
    private mutating func closeTag(_ name: String) throws(PropertyListError) {
        let start = position
        guard starts("</") else { throw damaged("expected </\(name)>") }
        position += 2
        for byte in name.utf8 {
            guard position < bytes.count, bytes[position] == byte else {
                throw damaged("expected </\(name)>", at: start)
            }
            position += 1
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw damaged("expected </\(name)>", at: start)
        }
        position += 1
    }

    // MARK: - Text

    /// The text of an element up to `</name>`, with references and CDATA decoded, as a string.
    private mutating func text(closing name: String) throws(PropertyListError) -> String {
        let start = position
        // The common case: plain text up to the closing tag.
        while position < bytes.count, bytes[position] != UInt8(ascii: "<"), bytes[position] != UInt8(ascii: "&") {
            position += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "<"), starts("</") {
            let text = try Self.string(bytes[start..<position], at: start)
            try closeTag(name)
            try charge(text.utf8.count)
            return text
        }
        var decoded = Array(bytes[start..<position])
        while true {
            guard position < bytes.count else { throw damaged("<\(name)> is not closed", at: start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                try reference(into: &decoded)
            } else if starts("<![CDATA[") {
                let open = position + 9
                try skip(past: "]]>", from: open, what: "a CDATA section")
                decoded += bytes[open..<(position - 3)]
            } else if starts("<!--") {
                try skip(past: "-->", from: position + 4, what: "a comment")
            } else if byte == UInt8(ascii: "<") {
                break
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        let text = try Self.string(decoded[...], at: start)
        try closeTag(name)
        try charge(decoded.count)
        return text
    }

    /// The text of an element that holds no markup (integer, real, date, data), trimmed.
    private mutating func plainText(closing name: String, selfClosing: Bool) throws(PropertyListError)
        -> (ArraySlice<UInt8>, Int)
    {
        guard !selfClosing else { return ([], position) }
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        var text = bytes[start..<position]
        try closeTag(name)
        while let first = text.first, Self.isSpace(first) { text = text.dropFirst() }
        while let last = text.last, Self.isSpace(last) { text = text.dropLast() }
        return (text, start)
    }

    /// Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;`.
    private mutating func reference(into out: inout [UInt8]) throws(PropertyListError) {
        let start = position
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw damaged("an '&' that starts no character reference (write it as &amp;)")
        }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            let digits = name.dropFirst()
            let code =
                name.hasPrefix("#x")
                ? UInt32(digits.dropFirst(), radix: 16) : name.hasPrefix("#") ? UInt32(digits) : nil
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                throw damaged("'&\(name);' is not a character reference a property list may hold", at: start)
            }
            out += String(Character(scalar)).utf8
        }
    }

    /// Text bytes as a string; invalid UTF-8 is damage, not something to replace silently.
    private static func string(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(PropertyListError) -> String {
        if !bytes.allSatisfy({ $0 < 0x80 }) {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: break decoding
                case .error:
                    throw PropertyListError(
                        .damaged, "the XML property list is damaged: it holds text that is not UTF-8", offset: offset)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Numbers

    /// A decimal or `0x` hexadecimal integer, signed or up to `UInt64.max`.
    static func integer(_ text: ArraySlice<UInt8>) -> PropertyList? {
        var digits = Substring(String(decoding: text, as: UTF8.self))
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.first != "+", digits.first != "-", let magnitude = UInt64(digits, radix: radix)
        else {
            return nil
        }
        if !negative { return .integer(unsigned: magnitude) }
        if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
        return magnitude == UInt64(Int64.max) + 1 ? .integer(Int64.min) : nil
    }

    /// A real, including the names Apple writes for infinities and NaN.
    static func real(_ text: ArraySlice<UInt8>) -> Double? {
        let string = String(decoding: text, as: UTF8.self)
        switch string.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard !string.isEmpty, string.utf8.allSatisfy({ Self.isRealByte($0) }) else { return nil }
            return Double(string)
        }
    }

    private static func isRealByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    // MARK: - Errors

    private func tooDeep() -> PropertyListError {
        PropertyListError(
            .tooDeep,
            "arrays and dictionaries nest deeper than \(limits.maxDepth) levels (line \(line(of: position))), which Jarvis does not read",
            offset: position)
    }

    /// Charges `bytes` more of memory; past the budget, the read stops.
    private mutating func charge(_ bytes: Int) throws(PropertyListError) {
        spent += bytes
        guard spent > budget else { return }
        var excess = ExpansionBudget(fileSize: self.bytes.count, limits: limits)
        excess.charge(spent, atLeast: true)
        var error = PropertyListError(
            .tooLarge,
            "the property list \(excess.excess(counting: "each value as it is read")); Jarvis does not read it",
            offset: position)
        error.expandedSize = spent
        throw error
    }

    private func damaged(_ what: String, at offset: Int? = nil) -> PropertyListError {
        let at = offset ?? position
        return PropertyListError(
            .damaged, "the XML property list is damaged at line \(line(of: at)): \(what)",
            offset: at)
    }

    private func line(of offset: Int) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
