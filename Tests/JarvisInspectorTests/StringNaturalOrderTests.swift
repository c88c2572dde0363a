import Testing

@testable import JarvisInspector

/// The order of every table and tree: numbers as numbers, letters without case, then exact.
@Suite struct StringNaturalOrderTests {
    @Test func digitsCompareAsNumbersAndLettersWithoutCase() {
        #expect("key_2".naturallyBefore("key_10"))
        #expect(!"key_10".naturallyBefore("key_2"))
        #expect("key_007".naturallyBefore("key_10"))
        #expect("Key_1".naturallyBefore("key_2"))
        #expect("key".naturallyBefore("key_1"))
        // Longer than any integer type: compared digit by digit.
        #expect("x99999999999999999999999".naturallyBefore("x100000000000000000000000"))
        #expect(!"key_2".naturallyBefore("key_2"))
    }

    @Test func theOrderIsTotal() {
        let names = ["a10", "é", "a1", "b", "A", "a01", "a2", "a", "z"]
        #expect(names.sorted { $0.naturallyBefore($1) } == ["A", "a", "a01", "a1", "a2", "a10", "b", "z", "é"])
        for one in names {
            for two in names where one != two {
                #expect(one.naturallyBefore(two) != two.naturallyBefore(one), "\(one) and \(two)")
            }
        }
    }

    @Test func anyTwoNamesCompareAsScalarsWould() {
        var generator = SeededGenerator(seed: 7)
        let pieces = [
            "0", "00", "1", "9", "10", "007", "a", "A", "z", "Z", "_", ".", "é", "e\u{301}", "ß", "😀", "Ω", "[", "`",
        ]
        var names: [String] = ["", "0", "00"]
        for _ in 0..<400 {
            var name = ""
            for _ in 0..<Int(generator.next() % 6) { name += pieces[Int(generator.next() % UInt64(pieces.count))] }
            names.append(name)
        }
        for left in names {
            for right in names {
                #expect(
                    left.naturallyBefore(right) == Self.reference(left, right),
                    "\(left.debugDescription) vs \(right.debugDescription)")
            }
        }
    }

    /// The scalar comparison `naturallyBefore` must agree with.
    static func reference(_ lhs: String, _ rhs: String) -> Bool {
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
        func folded(_ scalar: Unicode.Scalar) -> UInt32 {
            (scalar.value >= 65 && scalar.value <= 90) ? scalar.value + 32 : scalar.value
        }
        var left = lhs.unicodeScalars.makeIterator()
        var right = rhs.unicodeScalars.makeIterator()
        var a = left.next()
        var b = right.next()
        while let x = a, let y = b {
            if isDigit(x), isDigit(y) {
                var first: [Unicode.Scalar] = []
                var second: [Unicode.Scalar] = []
                while let d = a, isDigit(d) {
                    first.append(d)
                    a = left.next()
                }
                while let d = b, isDigit(d) {
                    second.append(d)
                    b = right.next()
                }
                let one = first.drop { $0 == "0" }
                let two = second.drop { $0 == "0" }
                if one.count != two.count { return one.count < two.count }
                for (p, q) in zip(one, two) where p != q { return p.value < q.value }
                continue
            }
            let p = folded(x)
            let q = folded(y)
            if p != q { return p < q }
            a = left.next()
            b = right.next()
        }
        if (a == nil) != (b == nil) { return a == nil }
        return lhs < rhs
    }
}
