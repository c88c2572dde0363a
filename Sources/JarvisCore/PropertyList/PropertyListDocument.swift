/// A property list whose top level is a dictionary, as a suite file holds it, read so that one
/// key can be changed while the rest of the file stays as it was.
///
/// An XML file is changed in place: the changed key's value is replaced where it stands,
/// a new key is added on its own lines before `</dict>`, a removed one loses its lines, each
/// in the file's own indentation; so a one-key change is a one-line diff. A binary file is
/// written again whole, every other value (integers, reals, dates, UIDs) exactly as read.
/// Each change is checked by reading back only what changed (see ``setting(_:to:)``).
package struct PropertyListDocument: Sendable {
    /// The file's bytes.
    package let bytes: [UInt8]
    /// Binary or XML.
    package let format: PropertyList.Format
    /// The top-level dictionary's members, in the file's order.
    package let members: [PropertyList.Member]
    /// Where the members sit in an XML file.
    let layout: XMLPropertyListLayout?
    /// What the file's value took in memory when read, as its reader measured it (0 for a
    /// document made by a change): what ``ExpansionBudget`` charges it.
    package private(set) var expandedSize = 0

    /// Reads a file's bytes.
    /// - Throws: ``PropertyListError`` as ``PropertyListCodec/read(_:limits:)``, and
    ///   `.unsupported` when the top level is not a dictionary.
    package init(_ bytes: [UInt8], limits: PropertyListLimits = .standard) throws(PropertyListError) {
        let format = try PropertyListCodec.checkedFormat(bytes)
        let value: PropertyList
        var layout: XMLPropertyListLayout?
        let size: Int
        switch format {
        case .binary:
            var reader = BinaryPropertyListReader(bytes, limits: limits)
            value = try reader.read()
            size = reader.expandedSize
        case .xml:
            var reader = XMLPropertyListReader(bytes, limits: limits)
            value = try reader.read()
            layout = reader.layout
            size = reader.expandedSize
        }
        guard case .dictionary(let members) = value else {
            throw PropertyListError(
                .unsupported, "the file holds \(value.kindDescription) at the top level, not a dictionary")
        }
        self.init(bytes: bytes, format: format, members: members, layout: layout)
        expandedSize = size
    }

    private init(
        bytes: [UInt8], format: PropertyList.Format, members: [PropertyList.Member], layout: XMLPropertyListLayout?
    ) {
        self.bytes = bytes
        self.format = format
        self.members = members
        self.layout = layout
    }

    /// A new, empty suite in `format`.
    package static func empty(_ format: PropertyList.Format) -> PropertyListDocument {
        PropertyListDocument(bytes: [], format: format, members: [], layout: nil)
    }

    /// The value of `key`, if the dictionary holds it.
    package func value(forKey key: String) -> PropertyList? {
        members.first { $0.key == key }?.value
    }

    /// The document with `key` set to `value` (nil removes it), and its bytes.
    ///
    /// The result is verified by reading back what changed: the new value's span of an XML
    /// file, or the key through a binary file's offset table; not by a second parse of
    /// everything. Returns `self` unchanged when removing a key it does not hold.
    /// - Throws: ``PropertyListError`` `.unsupported` when the format cannot hold the value
    ///   (XML: a control character, a date outside 0001–9999); `.damaged` if the check fails.
    package func setting(_ key: String, to value: PropertyList?) throws(PropertyListError) -> PropertyListDocument {
        let value = format == .xml ? value.map(Self.asXMLHolds) : value
        let position = members.firstIndex { $0.key == key }
        var members = self.members
        switch (position, value) {
        case (nil, nil): return self
        case (let position?, let value?): members[position].value = value
        case (let position?, nil): members.remove(at: position)
        case (nil, let value?): members.append(PropertyList.Member(key, value))
        }
        if format == .xml, let layout,
            let edited = try XMLSpanEdit(bytes: bytes, layout: layout).apply(
                key: key, at: position, value: value)
        {
            let document = PropertyListDocument(
                bytes: edited.bytes, format: .xml, members: members, layout: edited.layout)
            try document.verify(key, value, at: edited.valueStart)
            return document
        }
        let whole = try PropertyListCodec.write(.dictionary(members), as: format)
        if format == .xml {
            // Written whole in the codec's own layout: read once to know where each key sits.
            var reader = XMLPropertyListReader(whole, limits: .standard)
            let read = try reader.read()
            guard Self.bits(read, .xml) == Self.bits(.dictionary(members), .xml), let layout = reader.layout else {
                throw mismatch(key)
            }
            return PropertyListDocument(bytes: whole, format: .xml, members: members, layout: layout)
        }
        let document = PropertyListDocument(bytes: whole, format: .binary, members: members, layout: nil)
        try document.verify(key, value, at: nil)
        return document
    }

    /// Reads back the changed key alone from the new bytes.
    private func verify(_ key: String, _ value: PropertyList?, at valueStart: Int?) throws(PropertyListError) {
        let found: PropertyList?
        switch format {
        case .binary:
            var reader = BinaryPropertyListReader(bytes, limits: .standard)
            found = try reader.value(forKey: key)
        case .xml:
            guard let valueStart else { return }
            var reader = XMLPropertyListReader(bytes, limits: .standard)
            reader.skip(to: valueStart)
            found = try reader.readFragment()
        }
        guard found.map({ Self.bits($0, format) }) == value.map({ Self.bits($0, format) }) else { throw mismatch(key) }
    }

    /// What a value must read back as: reals and dates compared by their bits (a NaN equals
    /// itself), a date in XML to the whole second it is written with.
    private static func bits(_ value: PropertyList, _ format: PropertyList.Format) -> PropertyList {
        switch value {
        case .real(let real): .data(withUnsafeBytes(of: real.bitPattern) { Array($0) })
        case .date(let date):
            .data(withUnsafeBytes(of: (format == .xml ? date.rounded(.down) : date).bitPattern) { Array($0) })
        case .array(let elements): .array(elements.map { bits($0, format) })
        case .dictionary(let members): .dictionary(members.map { PropertyList.Member($0.key, bits($0.value, format)) })
        default: value
        }
    }

    /// A value as an XML file holds it: dates to the whole second.
    private static func asXMLHolds(_ value: PropertyList) -> PropertyList {
        switch value {
        case .date(let date): .date(date.rounded(.down))
        case .array(let elements): .array(elements.map(asXMLHolds))
        case .dictionary(let members): .dictionary(members.map { PropertyList.Member($0.key, asXMLHolds($0.value)) })
        default: value
        }
    }

    private func mismatch(_ key: String) -> PropertyListError {
        PropertyListError(
            .damaged,
            "'\(key)' did not read back as written, so nothing was written; this is a bug in Jarvis, please report it")
    }
}
