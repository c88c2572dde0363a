/// Reads a binary property list (`bplist00`), bounds-checked at every byte.
///
/// The trailer's sizes and counts are checked against the file before anything is read;
/// every offset must point into the object area, every reference must be a known object,
/// and a container that contains itself is refused as a cycle instead of being followed.
/// Before any value is made, what it expands to in memory is measured
/// (``PropertyListLimits/expandedSize(ofPayload:)``: an object reached through many references
/// counts every time it is reached) and the file is refused, naming that size, when it passes
/// the read's budget; so a small file cannot expand into a huge value.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let limits: PropertyListLimits
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var tableOffset = 0
    /// The containers being read, by object number: one met again inside itself is a cycle.
    private var open: [UInt64]
    /// What each container measured expands to, by object number; -1 while it is measured.
    private var measured: [Int: Int] = [:]
    /// What the values may take: ``PropertyListLimits/maxBytes``, and no more than a few times
    /// the file (``PropertyListLimits/budget(for:)``), so a small file that refers to one object
    /// millions of times is refused after little work.
    private let budget: Int
    /// What the value last read takes in memory, as measured before it was made.
    private(set) var expandedSize = 0

    /// The 8 bytes every binary property list starts with.
    static let magic: [UInt8] = Array("bplist00".utf8)
    private static let trailerSize = 32

    init(_ bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
        budget = limits.budget(for: bytes.count)
        open = []
    }

    /// Reads the whole property list.
    mutating func read() throws(PropertyListError) -> PropertyList {
        let top = try readTrailer()
        try measure(top, depth: 0)
        return try object(top, depth: 0)
    }

    /// Reads only the top-level dictionary's value for `key` (nil when it has none), through
    /// the offset table, without reading the other values.
    mutating func value(forKey key: String) throws(PropertyListError) -> PropertyList? {
        let top = try readTrailer()
        let offset = try objectOffset(top)
        let marker = bytes[offset]
        guard marker >> 4 == 0xD else { throw damaged("the top-level object is not a dictionary", at: offset) }
        let (count, start) = try count(marker, at: offset)
        let references = try referenceList(start: start, count: 2 * count, at: offset)
        let ascii = key.utf8.allSatisfy { $0 < 0x80 } ? Array(key.utf8) : nil
        for index in 0..<count where try isKey(references[index], key, ascii: ascii) {
            try measure(references[count + index], depth: 1)
            return try object(references[count + index], depth: 1)
        }
        return nil
    }

    /// Whether object `number` is the string `key`: an ASCII string object is compared by its
    /// bytes, with no string made for each key passed over.
    private mutating func isKey(_ number: Int, _ key: String, ascii: [UInt8]?) throws(PropertyListError) -> Bool {
        let offset = try objectOffset(number)
        if let ascii, bytes[offset] >> 4 == 0x5 {
            let (length, start) = try count(bytes[offset], at: offset)
            _ = try checked(start, length, "a string")
            return length == ascii.count && bytes[start..<(start + length)].elementsEqual(ascii)
        }
        return try keyText(number) == key
    }

    // MARK: - Trailer and tables

    /// Checks the header and trailer; returns the top object's number.
    private mutating func readTrailer() throws(PropertyListError) -> Int {
        guard bytes.count >= Self.magic.count + Self.trailerSize, bytes.starts(with: Self.magic) else {
            throw damaged("it is cut short: \(bytes.count) bytes, too few for its header and trailer", at: 0)
        }
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        // Any width from 1 to 8, as CoreFoundation, plistlib and libplist read (writers pick
        // 1, 2, 4 or 8, but a 3-byte width is as readable).
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw damaged(
                "its trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize) bytes (1 to 8 are allowed)",
                at: trailer + 6)
        }
        let count = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let top = Self.unsigned(bytes, at: trailer + 16, size: 8)
        let table = Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard count >= 1, top < count, table >= 8, table < UInt64(trailer) else {
            throw damaged(
                "its trailer is inconsistent (\(count) objects, top object \(top), offset table at byte \(table))",
                at: trailer)
        }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, tableSize <= UInt64(trailer) - table else {
            throw damaged("its offset table (\(count) offsets) runs past the end of the file", at: Int(table))
        }
        objectCount = Int(count)
        tableOffset = Int(table)
        return Int(top)
    }

    /// The byte offset of object `number`, checked to lie in the object area.
    private func objectOffset(_ number: Int) throws(PropertyListError) -> Int {
        guard number >= 0, number < objectCount else {
            throw damaged("an object refers to object \(number), but the file has \(objectCount)", at: tableOffset)
        }
        let offset = Self.unsigned(bytes, at: tableOffset + number * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(tableOffset) else {
            throw damaged("the offset of object \(number) (\(offset)) is outside the object area", at: tableOffset)
        }
        return Int(offset)
    }

    /// A big-endian unsigned integer of `size` bytes (1 to 8); the caller checked the bounds.
    private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// `size` bytes at `offset`, checked to end before the offset table.
    private func checked(_ offset: Int, _ size: Int, _ what: String) throws(PropertyListError) -> Int {
        guard size >= 0, offset <= tableOffset, size <= tableOffset - offset else {
            throw damaged("\(what) at byte \(offset) runs past the object area", at: offset)
        }
        return offset
    }

    /// The length an object's marker gives (its low nibble, or an integer after it when 15),
    /// and where its contents start.
    private func count(_ marker: UInt8, at offset: Int) throws(PropertyListError) -> (Int, Int) {
        let low = Int(marker & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        _ = try checked(offset + 1, 1, "a length")
        let lengthMarker = bytes[offset + 1]
        guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
            throw damaged("an object's length is not an integer of 1 to 8 bytes", at: offset + 1)
        }
        let size = 1 << Int(lengthMarker & 0x0F)
        _ = try checked(offset + 2, size, "a length")
        let length = Self.unsigned(bytes, at: offset + 2, size: size)
        guard length <= UInt64(tableOffset) else {
            throw damaged("an object claims \(length) elements, more than the file holds", at: offset)
        }
        return (Int(length), offset + 2 + size)
    }

    /// `count` object references starting at `start`.
    private func referenceList(start: Int, count: Int, at offset: Int) throws(PropertyListError) -> [Int] {
        let (size, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw damaged("a container's length overflows", at: offset) }
        _ = try checked(start, size, "a container's references")
        var references: [Int] = []
        references.reserveCapacity(count)
        var position = start
        for _ in 0..<count {
            let reference = Self.unsigned(bytes, at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw damaged(
                    "a container refers to object \(reference), but the file has \(objectCount)", at: position)
            }
            references.append(Int(reference))
            position += referenceSize
        }
        return references
    }

    // MARK: - Objects

    // MARK: - Measuring

    /// Measures what object `number` expands to and refuses it, naming that size, when it
    /// passes the budget; nothing is made. Linear in the objects and references of the file:
    /// each container is measured once, however often it is referred to.
    private mutating func measure(_ number: Int, depth: Int) throws(PropertyListError) {
        measured = [:]
        defer { measured = [:] }
        let size = try expandedSize(number, depth: depth)
        guard size <= budget else {
            var excess = ExpansionBudget(fileSize: bytes.count, limits: limits)
            excess.charge(size)
            var error = PropertyListError(
                .tooLarge,
                "the property list \(excess.excess(counting: "objects referred to many times count each time it is")); Jarvis does not read it",
                offset: tableOffset)
            error.expandedSize = size
            throw error
        }
        expandedSize = size
    }

    /// What object `number` takes in memory once made, every reference expanded; `Int.max`
    /// when past counting.
    private mutating func expandedSize(_ number: Int, depth: Int) throws(PropertyListError) -> Int {
        let offset = try objectOffset(number)
        let marker = bytes[offset]
        let kind = marker >> 4
        guard kind == 0xA || kind == 0xD else { return try scalarSize(marker, at: offset) }
        if let known = measured[number] {
            guard known >= 0 else { throw cycle(number, at: offset) }
            return known
        }
        guard depth < limits.maxDepth else { throw tooDeep(at: offset) }
        // Each container measured counts at least its own cost: past this many, the value is
        // past the budget whatever the rest holds (and the table of sizes stays bounded).
        guard measured.count < budget / PropertyListLimits.objectCost else { return Int.max }
        measured[number] = -1
        let (count, start) = try count(marker, at: offset)
        let references = try referenceList(start: start, count: kind == 0xA ? count : 2 * count, at: offset)
        var total = PropertyListLimits.expandedSize(ofPayload: (kind == 0xA ? 8 : 24) * count)
        for reference in references {
            let (sum, overflow) = total.addingReportingOverflow(try expandedSize(reference, depth: depth + 1))
            total = overflow ? Int.max : sum
            if total == Int.max { break }
        }
        measured[number] = total
        return total
    }

    /// What a scalar object takes in memory: its payload (text and data by their bytes) and
    /// the cost of any value.
    private func scalarSize(_ marker: UInt8, at offset: Int) throws(PropertyListError) -> Int {
        switch marker >> 4 {
        case 0x4, 0x5: return PropertyListLimits.expandedSize(ofPayload: try count(marker, at: offset).0)
        case 0x6:
            let (units, overflow) = try count(marker, at: offset).0.multipliedReportingOverflow(by: 4)
            return overflow ? Int.max : PropertyListLimits.expandedSize(ofPayload: units)
        default: return PropertyListLimits.expandedSize(ofPayload: 0)
        }
    }

    /// A dictionary key: a string object.
    private mutating func keyText(_ number: Int) throws(PropertyListError) -> String {
        let offset = try objectOffset(number)
        guard case .string(let key) = try scalar(at: offset, number: number) else {
            throw damaged("a dictionary key is not a string", at: offset)
        }
        return key
    }

    private mutating func object(_ number: Int, depth: Int) throws(PropertyListError) -> PropertyList {
        let offset = try objectOffset(number)
        let kind = bytes[offset] >> 4
        guard kind == 0xA || kind == 0xD else { return try scalar(at: offset, number: number) }
        guard depth < limits.maxDepth else { throw tooDeep(at: offset) }
        guard !open.contains(UInt64(number)) else { throw cycle(number, at: offset) }
        open.append(UInt64(number))
        defer { open.removeLast() }
        let (count, start) = try count(bytes[offset], at: offset)
        if kind == 0xA {
            let references = try referenceList(start: start, count: count, at: offset)
            var elements: [PropertyList] = []
            elements.reserveCapacity(count)
            for reference in references { elements.append(try object(reference, depth: depth + 1)) }
            return .array(elements)
        }
        let references = try referenceList(start: start, count: 2 * count, at: offset)
        var members: [PropertyList.Member] = []
        members.reserveCapacity(count)
        var seen = Set<String>(minimumCapacity: count)
        for index in 0..<count {
            let key = try keyText(references[index])
            guard seen.insert(key).inserted else {
                throw PropertyListError(
                    .duplicateKey,
                    "a dictionary holds the key '\(key)' twice (written the same, or in two Unicode spellings of one name)",
                    offset: offset)
            }
            members.append(PropertyList.Member(key, try object(references[count + index], depth: depth + 1)))
        }
        return .dictionary(members)
    }

    private mutating func scalar(at offset: Int, number: Int) throws(PropertyListError) -> PropertyList {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default:
                throw PropertyListError(
                    .unsupported,
                    "object \(number) is a null or fill byte (0x\(hex(marker))), which Jarvis does not read",
                    offset: offset)
            }
        case 0x1:
            guard low <= 4 else { throw damaged("an integer of 2^\(low) bytes", at: offset) }
            let size = 1 << low
            _ = try checked(offset + 1, size, "an integer")
            if size == 16 {
                let high = Self.unsigned(bytes, at: offset + 1, size: 8)
                let value = Self.unsigned(bytes, at: offset + 9, size: 8)
                if high == 0 { return .integer(unsigned: value) }
                if high == UInt64.max, value > UInt64(Int64.max) { return .integer(Int64(bitPattern: value)) }
                throw PropertyListError(
                    .unsupported, "an integer is beyond 64 bits, which Jarvis does not read", offset: offset)
            }
            let value = Self.unsigned(bytes, at: offset + 1, size: size)
            return size == 8 ? .integer(Int64(bitPattern: value)) : .integer(Int64(value))
        case 0x2:
            guard low == 2 || low == 3 else { throw damaged("a real of 2^\(low) bytes", at: offset) }
            _ = try checked(offset + 1, 1 << low, "a real")
            let bits = Self.unsigned(bytes, at: offset + 1, size: 1 << low)
            return .real(low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard marker == 0x33 else { throw damaged("a date that is not 8 bytes", at: offset) }
            _ = try checked(offset + 1, 8, "a date")
            return .date(Double(bitPattern: Self.unsigned(bytes, at: offset + 1, size: 8)))
        case 0x4:
            let (length, start) = try count(marker, at: offset)
            _ = try checked(start, length, "data")
            return .data(Array(bytes[start..<(start + length)]))
        case 0x5:
            let (length, start) = try count(marker, at: offset)
            _ = try checked(start, length, "a string")
            let slice = bytes[start..<(start + length)]
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw damaged("an ASCII string holds a byte above 0x7F", at: start)
            }
            return .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (length, start) = try count(marker, at: offset)
            let (size, overflow) = length.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw damaged("a string's length overflows", at: offset) }
            _ = try checked(start, size, "a string")
            return .string(try utf16(start: start, units: length))
        case 0x8:
            guard low <= 7 else { throw damaged("a UID of \(low + 1) bytes", at: offset) }
            _ = try checked(offset + 1, low + 1, "a UID")
            return .uid(Self.unsigned(bytes, at: offset + 1, size: low + 1))
        case 0xC:
            throw PropertyListError(
                .unsupported, "object \(number) is a set, which property lists Jarvis reads do not hold", offset: offset
            )
        default:
            throw damaged("object \(number) has an unknown type marker 0x\(hex(marker))", at: offset)
        }
    }

    /// A UTF-16 big-endian string; a lone surrogate is damage, not text.
    private func utf16(start: Int, units: Int) throws(PropertyListError) -> String {
        var scalars = String.UnicodeScalarView()
        var position = start
        let end = start + 2 * units
        while position < end {
            let unit = UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
            position += 2
            if unit < 0xD800 || unit > 0xDFFF, let scalar = Unicode.Scalar(unit) {
                scalars.append(scalar)
                continue
            }
            guard unit < 0xDC00, position < end else {
                throw damaged("a string holds a lone UTF-16 surrogate", at: position - 2)
            }
            let low = UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
            position += 2
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            else { throw damaged("a string holds a lone UTF-16 surrogate", at: position - 4) }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    private func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + text : text
    }

    private func tooDeep(at offset: Int) -> PropertyListError {
        PropertyListError(
            .tooDeep, "arrays and dictionaries nest deeper than \(limits.maxDepth) levels, which Jarvis does not read",
            offset: offset)
    }

    private func cycle(_ number: Int, at offset: Int) -> PropertyListError {
        PropertyListError(
            .cycle, "object \(number) contains itself (a cycle of references), which no property list may hold",
            offset: offset)
    }

    private func damaged(_ what: String, at offset: Int) -> PropertyListError {
        PropertyListError(
            .damaged, "the binary property list is damaged: \(what)", offset: offset)
    }
}
