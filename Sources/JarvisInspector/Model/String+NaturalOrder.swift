extension String {
    /// Natural order for names people read: digits compare as numbers (`item2` before
    /// `item10`), letters case-insensitively, then exactly, so the order is total.
    ///
    /// Tables and trees sort 100,000 names with it, so it reads the UTF-8 bytes in place and
    /// allocates nothing (byte order is scalar order in UTF-8; digits and the folded letters
    /// are ASCII).
    func naturallyBefore(_ other: String) -> Bool {
        var left = self
        var right = other
        let order = left.withUTF8 { one in right.withUTF8 { two in Self.naturalOrder(one, two) } }
        return order != 0 ? order < 0 : self < other
    }

    /// -1, 0 or 1 as `a` comes before, with, or after `b` in natural order.
    private static func naturalOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let x = a[i]
            let y = b[j]
            if isDigit(x), isDigit(y) {
                // Two runs of digits compare as numbers: leading zeros aside, the longer is larger.
                var endA = i
                while endA < a.count, isDigit(a[endA]) { endA += 1 }
                var endB = j
                while endB < b.count, isDigit(b[endB]) { endB += 1 }
                while i < endA, a[i] == 48 { i += 1 }
                while j < endB, b[j] == 48 { j += 1 }
                if endA - i != endB - j { return endA - i < endB - j ? -1 : 1 }
                while i < endA {
                    if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                    i += 1
                    j += 1
                }
                continue
            }
            let p = folded(x)
            let q = folded(y)
            if p != q { return p < q ? -1 : 1 }
            i += 1
            j += 1
        }
        // The one that ended first comes first.
        if (i < a.count) != (j < b.count) { return i < a.count ? 1 : -1 }
        return 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func folded(_ byte: UInt8) -> UInt8 { (byte >= 65 && byte <= 90) ? byte + 32 : byte }
}
