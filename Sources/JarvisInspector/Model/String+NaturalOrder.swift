extension String {
    /// Natural order for names people read: digits compare as numbers (`item2` before
    /// `item10`), letters case-insensitively, then exactly, so the order is total.
    func naturallyBefore(_ other: String) -> Bool {
        var left = unicodeScalars.makeIterator()
        var right = other.unicodeScalars.makeIterator()
        var a = left.next()
        var b = right.next()
        while let x = a, let y = b {
            if Self.isDigit(x), Self.isDigit(y) {
                var first: [Unicode.Scalar] = []
                var second: [Unicode.Scalar] = []
                while let d = a, Self.isDigit(d) { first.append(d); a = left.next() }
                while let d = b, Self.isDigit(d) { second.append(d); b = right.next() }
                let one = first.drop { $0 == "0" }
                let two = second.drop { $0 == "0" }
                if one.count != two.count { return one.count < two.count }
                for (p, q) in zip(one, two) where p != q { return p.value < q.value }
                continue
            }
            let p = Self.folded(x)
            let q = Self.folded(y)
            if p != q { return p < q }
            a = left.next()
            b = right.next()
        }
        if (a == nil) != (b == nil) { return a == nil }
        return self < other
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        (scalar.value >= 65 && scalar.value <= 90) ? scalar.value + 32 : scalar.value
    }
}
