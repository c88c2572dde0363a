/// Finds, eight bytes at a time, how long a run of JSON string bytes needs no special care:
/// the writer copies such a run whole instead of looking at each byte, and the request
/// reader takes it as text without escapes.
///
/// Each word is tested with the usual carry tricks ("has a byte below n", "has a byte equal
/// to c"); a word that may hold a special byte is looked at byte by byte, so the answer is
/// exact.
package enum PlainByteScan {
    /// Which bytes end a run.
    package enum Stop: Sendable {
        /// A control byte (below 0x20), `"` or `\`, and 0xE2 (U+2028 and U+2029 start with
        /// it): what ``JSONWriter`` escapes.
        case writerEscapes
        /// Anything but printable ASCII without `"` and `\`: what a flat request reads as text.
        case printableASCIIWithoutEscapes
    }

    @usableFromInline static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @usableFromInline static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The number of bytes from the start of `bytes` before the first byte that `stop` names.
    @inlinable
    package static func plainPrefixLength(_ bytes: UnsafeRawBufferPointer, stop: Stop) -> Int {
        switch stop {
        case .writerEscapes: plainPrefixLength(bytes, .writerEscapes)
        case .printableASCIIWithoutEscapes: plainPrefixLength(bytes, .printableASCIIWithoutEscapes)
        }
    }

    /// The scan for one constant `stop`, so each word's test is folded for it.
    @inlinable @inline(__always)
    static func plainPrefixLength(_ bytes: UnsafeRawBufferPointer, _ stop: Stop) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var at = 0
        while at + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            if mayStop(word, stop) { break }
            at += 8
        }
        while at < count, !stops(base.load(fromByteOffset: at, as: UInt8.self), stop) { at += 1 }
        return at
    }

    /// Whether `byte` ends a run.
    @inlinable @inline(__always)
    package static func stops(_ byte: UInt8, _ stop: Stop) -> Bool {
        switch stop {
        case .writerEscapes:
            return byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2
        case .printableASCIIWithoutEscapes:
            return byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }
    }

    /// Whether any byte of `word` may end a run (never false when one does).
    @inlinable @inline(__always)
    static func mayStop(_ word: UInt64, _ stop: Stop) -> Bool {
        var found = below(word, 0x20) | equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\"))
        switch stop {
        case .writerEscapes: found |= equal(word, 0xE2)
        case .printableASCIIWithoutEscapes: found |= word & highs | equal(word, 0x7F)
        }
        return found != 0
    }

    /// Nonzero when some byte of `word` is below `limit` (at most 0x80).
    @inlinable @inline(__always)
    static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Nonzero when some byte of `word` equals `byte`.
    @inlinable @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let spread = word ^ (ones &* UInt64(byte))
        return (spread &- ones) & ~spread & highs
    }
}
