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
}
