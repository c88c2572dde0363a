/// Finds a dictionary in a property list's bytes that holds one key name twice — written the
/// same, or in two Unicode spellings of one name (`ñ` composed, and `n` + U+0303) — before
/// Foundation reads it.
///
/// Jarvis compares names under canonical equivalence (PROTOCOL.md, "One spelling of a name"),
/// and so do Swift's `String` keys: Foundation keeps only one of two such keys when it makes a
/// `[String: Any]` (on Linux while parsing, on Apple platforms when bridging), so a read would
/// answer one key's value for the other and a write would drop one from the file. A suite that
/// holds such a pair is refused instead, as a JSON file with a duplicate key is. Reads XML and
/// binary (`bplist00`) property lists; anything it cannot follow is left to Foundation's parser,
/// which reports damage itself. Linear in the file's size, and every read is bounds-checked.
enum PlistKeySpellings {
    /// Whether some dictionary of the property list holds two keys that are one name.
    static func hasDuplicateKey(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("bplist00".utf8)) { return binaryHasDuplicate(bytes) }
        return xmlHasDuplicate(bytes)
    }

    // MARK: - XML

    private static func xmlHasDuplicate(_ bytes: [UInt8]) -> Bool {
        var dictionaries: [Set<String>] = []
        var position = 0
        while let open = bytes[position...].firstIndex(of: UInt8(ascii: "<")) {
            if bytes[open...].starts(with: Array("<!--".utf8)) {
                guard let end = find(Array("-->".utf8), in: bytes, from: open + 4) else { return false }
                position = end + 3
                continue
            }
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { return false }
            let tag = bytes[(open + 1)..<close]
            position = close + 1
            let name = tag.prefix { !isSpace($0) && $0 != UInt8(ascii: "/") }
            switch String(decoding: name, as: UTF8.self) {
            case "dict" where tag.last != UInt8(ascii: "/"): dictionaries.append([])
            case "/dict": _ = dictionaries.popLast()
            case "key" where tag.last != UInt8(ascii: "/"):
                guard let end = find(Array("</key>".utf8), in: bytes, from: position) else { return false }
                let key = xmlText(bytes[position..<end])
                position = end + 6
                guard !dictionaries.isEmpty else { continue }
                if !dictionaries[dictionaries.count - 1].insert(key).inserted { return true }
            default: break
            }
        }
        return false
    }

    /// The text of an element: CDATA as it is, the five named entities and character
    /// references decoded.
    private static func xmlText(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        if text.hasPrefix("<![CDATA["), text.hasSuffix("]]>") {
            return String(text.dropFirst(9).dropLast(3))
        }
        guard text.contains("&") else { return text }
        var decoded = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&"), let semicolon = rest[amp...].firstIndex(of: ";") {
            decoded += rest[..<amp]
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": decoded += "&"
            case "lt": decoded += "<"
            case "gt": decoded += ">"
            case "quot": decoded += "\""
            case "apos": decoded += "'"
            default:
                let number =
                    entity.hasPrefix("#x") || entity.hasPrefix("#X")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    decoded.unicodeScalars.append(scalar)
                } else {
                    decoded += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return decoded + rest
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start <= bytes.count else { return nil }
        var index = start
        while let candidate = bytes[index...].firstIndex(of: first) {
            if bytes[candidate...].starts(with: needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    // MARK: - Binary

    private static func binaryHasDuplicate(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 40 else { return false }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objects = number(bytes, at: trailer + 8, size: 8), let table = number(bytes, at: trailer + 24, size: 8),
            objects <= bytes.count, table <= trailer, objects * offsetSize <= trailer - table
        else { return false }
        func offset(of object: Int) -> Int? {
            guard object < objects, let offset = number(bytes, at: table + object * offsetSize, size: offsetSize),
                offset < table
            else { return nil }
            return offset
        }
        for object in 0..<objects {
            guard let start = offset(of: object), bytes[start] >> 4 == 0xD,
                let (count, first) = length(bytes, at: start), count <= (table - first) / referenceSize
            else { continue }
            var keys = Set<String>()
            for index in 0..<count {
                guard let reference = number(bytes, at: first + index * referenceSize, size: referenceSize),
                    let keyStart = offset(of: reference), let key = string(bytes, at: keyStart, end: table)
                else { continue }
                if !keys.insert(key).inserted { return true }
            }
        }
        return false
    }

    /// A string object: ASCII (`0x5n`), UTF-16 big-endian (`0x6n`) or UTF-8 (`0x7n`).
    private static func string(_ bytes: [UInt8], at start: Int, end: Int) -> String? {
        let kind = bytes[start] >> 4
        guard kind == 0x5 || kind == 0x6 || kind == 0x7, let (count, first) = length(bytes, at: start) else {
            return nil
        }
        let size = kind == 0x6 ? 2 : 1
        guard count <= (end - first) / size else { return nil }
        if kind != 0x6 { return String(decoding: bytes[first..<(first + count)], as: UTF8.self) }
        let units = (0..<count).map { UInt16(bytes[first + 2 * $0]) << 8 | UInt16(bytes[first + 2 * $0 + 1]) }
        return String(decoding: units, as: UTF16.self)
    }

    /// An object's length from its marker's low nibble, or from the integer that follows when
    /// the nibble is `0xF`; and where its contents start.
    private static func length(_ bytes: [UInt8], at start: Int) -> (count: Int, first: Int)? {
        let nibble = Int(bytes[start] & 0x0F)
        guard nibble == 0x0F else { return (nibble, start + 1) }
        guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        guard size <= 8, let count = number(bytes, at: start + 2, size: size) else { return nil }
        return (count, start + 2 + size)
    }

    /// A big-endian unsigned integer of `size` bytes, nil past the end or above `Int.max / 2`.
    private static func number(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        guard start >= 0, size <= bytes.count - start else { return nil }
        var value: UInt64 = 0
        for byte in bytes[start..<(start + size)] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max / 2) ? Int(value) : nil
    }
}
