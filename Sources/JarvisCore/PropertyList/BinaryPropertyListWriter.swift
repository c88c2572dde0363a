/// Writes a binary property list (`bplist00`).
///
/// Objects are laid out as Python's `plistlib` lays them out (each container before its
/// contents, a dictionary's keys before its values), so a file `plistlib` wrote is written
/// back byte for byte. Strings, numbers, dates and data that occur more than once are stored
/// once, found by hashing (a linear search is what makes some writers take seconds on a large
/// suite); containers are never shared.
struct BinaryPropertyListWriter {
    /// An object as laid out: a scalar, or a container's references to its contents.
    private enum Flat {
        case scalar(PropertyList)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What makes two scalars one object: reals and dates compare by their bits, so `0.0` and
    /// `-0.0` stay two objects.
    private enum ScalarKey: Hashable {
        case string(String)
        case integer(Int64)
        case unsigned(UInt64)
        case real(UInt64)
        case boolean(Bool)
        case date(UInt64)
        case data(Bytes)
        case uid(UInt64)
    }

    /// Bytes hashed as one block (an array hashes element by element).
    private struct Bytes: Hashable {
        var bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private var objects: [Flat] = []
    private var scalars: [ScalarKey: Int] = [:]

    /// The bytes of `value` as a binary property list.
    static func bytes(_ value: PropertyList) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        if case .dictionary(let members) = value {
            writer.scalars.reserveCapacity(2 * members.count)
            writer.objects.reserveCapacity(2 * members.count + 1)
        }
        let top = writer.flatten(value)
        return writer.write(top: top)
    }

    private mutating func flatten(_ value: PropertyList) -> Int {
        let key: ScalarKey
        switch value {
        case .array(let elements):
            let number = objects.count
            objects.append(.array([]))
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(flatten(element)) }
            objects[number] = .array(references)
            return number
        case .dictionary(let members):
            let number = objects.count
            objects.append(.array([]))
            var keys: [Int] = []
            keys.reserveCapacity(members.count)
            for member in members { keys.append(flatten(.string(member.key))) }
            var values: [Int] = []
            values.reserveCapacity(members.count)
            for member in members { values.append(flatten(member.value)) }
            objects[number] = .dictionary(keys: keys, values: values)
            return number
        case .string(let text): key = .string(text)
        case .integer(let integer): key = .integer(integer)
        case .unsigned(let integer): key = .unsigned(integer)
        case .real(let real): key = .real(real.bitPattern)
        case .boolean(let boolean): key = .boolean(boolean)
        case .date(let date): key = .date(date.bitPattern)
        case .data(let data): key = .data(Bytes(bytes: data))
        case .uid(let uid): key = .uid(uid)
        }
        // One hash for a value met the first time, which most are (every key of a suite).
        let number = objects.count
        if let existing = scalars.updateValue(number, forKey: key) {
            scalars[key] = existing
            return existing
        }
        objects.append(.scalar(value))
        return number
    }

    private func write(top: Int) -> [UInt8] {
        let referenceSize = Self.size(for: UInt64(objects.count))
        var out = BinaryPropertyListReader.magic
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .scalar(let value): Self.write(value, into: &out)
            case .array(let references):
                Self.marker(0xA, references.count, into: &out)
                for reference in references { Self.append(UInt64(reference), size: referenceSize, into: &out) }
            case .dictionary(let keys, let values):
                Self.marker(0xD, keys.count, into: &out)
                for reference in keys { Self.append(UInt64(reference), size: referenceSize, into: &out) }
                for reference in values { Self.append(UInt64(reference), size: referenceSize, into: &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = Self.size(for: UInt64(tableOffset))
        for offset in offsets { Self.append(UInt64(offset), size: offsetSize, into: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.append(UInt64(objects.count), size: 8, into: &out)
        Self.append(UInt64(top), size: 8, into: &out)
        Self.append(UInt64(tableOffset), size: 8, into: &out)
        return out
    }

    /// The fewest bytes (1, 2, 4 or 8) that hold values below `count`, as `plistlib` picks them.
    private static func size(for count: UInt64) -> Int {
        count < 1 << 8 ? 1 : count < 1 << 16 ? 2 : count < 1 << 32 ? 4 : 8
    }

    private static func append(_ value: UInt64, size: Int, into out: inout [UInt8]) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A type marker with its length: in the low nibble below 15, else as an integer after it.
    private static func marker(_ kind: UInt8, _ length: Int, into out: inout [UInt8]) {
        if length < 15 {
            out.append(kind << 4 | UInt8(length))
            return
        }
        out.append(kind << 4 | 0x0F)
        let size = Self.size(for: UInt64(length))
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        append(UInt64(length), size: size, into: &out)
    }

    private static func write(_ value: PropertyList, into out: inout [UInt8]) {
        switch value {
        case .boolean(let boolean): out.append(boolean ? 0x09 : 0x08)
        case .integer(let integer):
            if integer < 0 {
                out.append(0x13)
                append(UInt64(bitPattern: integer), size: 8, into: &out)
            } else {
                let size = integer < 1 << 8 ? 1 : integer < 1 << 16 ? 2 : integer < 1 << 32 ? 4 : 8
                out.append(0x10 | UInt8(size.trailingZeroBitCount))
                append(UInt64(integer), size: size, into: &out)
            }
        case .unsigned(let integer):
            // Above Int64.max: 16 bytes, the high 8 zero, as Apple and plistlib write it.
            out.append(0x14)
            append(0, size: 8, into: &out)
            append(integer, size: 8, into: &out)
        case .real(let real):
            out.append(0x23)
            append(real.bitPattern, size: 8, into: &out)
        case .date(let date):
            out.append(0x33)
            append(date.bitPattern, size: 8, into: &out)
        case .data(let data):
            marker(0x4, data.count, into: &out)
            out += data
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                marker(0x5, text.utf8.count, into: &out)
                out += text.utf8
            } else {
                marker(0x6, text.utf16.count, into: &out)
                for unit in text.utf16 {
                    out.append(UInt8(unit >> 8))
                    out.append(UInt8(unit & 0xFF))
                }
            }
        case .uid(let uid):
            let size = uid < 1 << 8 ? 1 : uid < 1 << 16 ? 2 : uid < 1 << 32 ? 4 : 8
            out.append(0x80 | UInt8(size - 1))
            append(uid, size: size, into: &out)
        case .array, .dictionary:
            // Containers are laid out by `write(top:)`; never reached.
            break
        }
    }
}
