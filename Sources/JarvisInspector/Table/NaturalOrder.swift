/// The order people expect of names with numbers in them: `key_2` before `key_10`.
///
/// Runs of digits compare by their value, everything else by its characters, case-insensitively
/// first and exactly when that ties, so the order is total and stable.
public enum NaturalOrder {
    /// Whether `lhs` comes before `rhs`.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let verdict = compare(Array(lhs.lowercased().unicodeScalars), Array(rhs.lowercased().unicodeScalars))
        if verdict != 0 { return verdict < 0 }
        return lhs < rhs
    }

    private static func compare(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        var left = 0
        var right = 0
        while left < lhs.count, right < rhs.count {
            let a = lhs[left]
            let b = rhs[right]
            if isDigit(a), isDigit(b) {
                let leftEnd = digitsEnd(lhs, from: left)
                let rightEnd = digitsEnd(rhs, from: right)
                let leftDigits = trimmedZeros(lhs[left..<leftEnd])
                let rightDigits = trimmedZeros(rhs[right..<rightEnd])
                if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count ? -1 : 1 }
                for (x, y) in zip(leftDigits, rightDigits) where x != y { return x.value < y.value ? -1 : 1 }
                // Equal values: fewer leading zeros first.
                let leftWidth = leftEnd - left
                let rightWidth = rightEnd - right
                if leftWidth != rightWidth { return leftWidth < rightWidth ? -1 : 1 }
                left = leftEnd
                right = rightEnd
                continue
            }
            if a != b { return a.value < b.value ? -1 : 1 }
            left += 1
            right += 1
        }
        if left < lhs.count { return 1 }
        if right < rhs.count { return -1 }
        return 0
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    private static func digitsEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var end = start
        while end < scalars.count, isDigit(scalars[end]) { end += 1 }
        return end
    }

    private static func trimmedZeros(_ digits: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        var trimmed = digits
        while trimmed.count > 1, trimmed.first?.value == 48 { trimmed.removeFirst() }
        return trimmed
    }
}
