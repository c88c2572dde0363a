/// Binary property lists made object by object, for tests that need bytes no writer makes:
/// damage, cycles, and one object referred to many times.
package enum BinaryPlistBytes {
    /// A binary property list of `objects` (each its marker and contents), in that order.
    package static func from(_ objects: [[UInt8]], top: Int = 0, offsetSize: UInt8 = 4, referenceSize: UInt8 = 2)
        -> [UInt8]
    {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let table = out.count
        for offset in offsets { out += bigEndian(offset, size: Int(offsetSize)) }
        out += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        for value in [objects.count, top, table] { out += bigEndian(value, size: 8) }
        return out
    }

    /// A dictionary whose `keys` keys (`k0`, `k1`, …) all refer to one data object holding
    /// `data`: a file little larger than `data` that expands to `keys` copies of it.
    package static func sharedData(keys: Int, data: [UInt8]) -> [UInt8] {
        // Objects: 0 the dictionary, 1…keys the key strings, keys + 1 the data.
        var dictionary: [UInt8] = [0xDF, 0x11] + bigEndian(keys, size: 2)
        for index in 0..<keys { dictionary += bigEndian(1 + index, size: 2) }
        for _ in 0..<keys { dictionary += bigEndian(keys + 1, size: 2) }
        var objects = [dictionary]
        for index in 0..<keys {
            let name = Array("k\(index)".utf8)
            objects.append([0x50 | UInt8(name.count)] + name)
        }
        objects.append([0x4F, 0x12] + bigEndian(data.count, size: 4) + data)
        return from(objects)
    }

    /// `value` in `size` bytes, most significant first.
    package static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }
}
