/// Jarvis's own property-list codec: reads and writes binary (`bplist00`) and XML property
/// lists without Foundation's `PropertyListSerialization`.
///
/// Pure functions over bytes, safe from any thread. Reading never traps on hostile input:
/// every offset is bounds-checked, cycles are refused, nesting and memory are bounded by
/// ``PropertyListLimits``; every failure is a ``PropertyListError`` saying what to fix.
package enum PropertyListCodec {
    /// The format bytes are in, judged from how they start; nil when neither.
    package static func format(of bytes: [UInt8]) -> PropertyList.Format? {
        if bytes.starts(with: BinaryPropertyListReader.magic) { return .binary }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? .xml : nil
    }

    /// Reads a property list of either format.
    /// - Throws: ``PropertyListError``: `.unknownFormat` for OpenStep text, JSON or other
    ///   bytes; `.damaged`, `.cycle`, `.tooDeep`, `.tooLarge`, `.duplicateKey`, `.unsupported`.
    package static func read(_ bytes: [UInt8], limits: PropertyListLimits = .standard) throws(PropertyListError)
        -> (value: PropertyList, format: PropertyList.Format)
    {
        let read = try measuredRead(bytes, limits: limits)
        return (read.value, read.format)
    }

    /// Reads a property list of either format, charging what its value expands to in memory
    /// against `budget` (a property list inside another file's data: one budget for the
    /// file and everything decoded from it). Nothing is made when it would pass what is left.
    /// - Throws: as ``read(_:limits:)``; `.tooLarge`, with `budget` charged past its limit,
    ///   when it would pass what is left.
    package static func read(_ bytes: [UInt8], budget: inout ExpansionBudget) throws(PropertyListError)
        -> (value: PropertyList, format: PropertyList.Format)
    {
        do {
            let read = try measuredRead(bytes, limits: PropertyListLimits(maxBytes: budget.remaining))
            budget.charge(read.size)
            return (read.value, read.format)
        } catch {
            // Past what was left: charged as far as counted (a binary file's measure is exact),
            // so the budget says it is passed. One refused by its own size alone charges nothing.
            if error.code == .tooLarge, let size = error.expandedSize, size > budget.remaining {
                budget.charge(size, atLeast: format(of: bytes) != .binary)
            }
            throw error
        }
    }

    /// Reads either format, with what the value takes in memory as its reader counted it.
    private static func measuredRead(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError)
        -> (value: PropertyList, format: PropertyList.Format, size: Int)
    {
        switch try checkedFormat(bytes) {
        case .binary:
            var reader = BinaryPropertyListReader(bytes, limits: limits)
            let value = try reader.read()
            return (value, .binary, reader.expandedSize)
        case .xml:
            var reader = XMLPropertyListReader(bytes, limits: limits)
            let value = try reader.read()
            return (value, .xml, reader.expandedSize)
        }
    }

    /// The bytes of `value` in `format`.
    /// - Throws: ``PropertyListError`` `.unsupported` for what XML cannot hold (a control
    ///   character in text, a date outside the years 0001 to 9999); binary holds everything.
    package static func write(_ value: PropertyList, as format: PropertyList.Format) throws(PropertyListError)
        -> [UInt8]
    {
        switch format {
        case .binary: BinaryPropertyListWriter.bytes(value)
        case .xml: try XMLPropertyListWriter.bytes(value)
        }
    }

    /// The format, or why the bytes are in none Jarvis reads.
    static func checkedFormat(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyList.Format {
        if let format = format(of: bytes) { return format }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw PropertyListError(
                .unknownFormat,
                "the file is a binary property list of a version other than bplist00, which Jarvis does not read")
        }
        if bytes.isEmpty {
            throw PropertyListError(.damaged, "the file is empty, not a property list")
        }
        throw PropertyListError(
            .unknownFormat,
            "the file is neither a binary nor an XML property list (an old-style OpenStep text or JSON is read only by Apple's tools); convert it with 'plutil -convert xml1'"
        )
    }
}
