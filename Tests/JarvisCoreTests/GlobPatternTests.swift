import Testing

@testable import JarvisCore

@Suite struct GlobPatternTests {
    @Test(arguments: [
        ("workout_*", "workout_2024-01-15", true), ("workout_*", "workouts", false), ("*", "", true),
        ("com.apple.*", "com.apple.finder", true), ("com.apple.*", "com.example", false), ("a?c", "abc", true),
        ("a?c", "ac", false), ("[ab]x", "bx", true), ("[!ab]x", "bx", false), ("[a-c]1", "b1", true),
        ("*.json", "env/prod.json", true), ("a\\*", "a*", true), ("a\\*", "ab", false),
        ("private_data", "private_data", true),
        ("*a*b*", "xxaxxbxx", true), ("*a*b", "xxaxxbxxc", false), ("é?", "éü", true),
    ])
    func matches(_ pattern: String, _ text: String, _ expected: Bool) {
        #expect(GlobPattern(pattern).matches(text) == expected)
    }

    @Test func exactPatternsAreRecognised() {
        #expect(GlobPattern("private_data").isExact)
        #expect(!GlobPattern("private_*").isExact)
    }

    /// The segment matcher and backtracking agree on every small pattern and name: patterns of
    /// `a`, `b`, `?`, `*` and `[ab]`/`[!a]` up to 6 tokens against names up to 7 scalars.
    @Test func theSegmentMatcherAgreesWithBacktracking() {
        let pieces = ["a", "b", "?", "*", "[ab]", "[!a]", "é"]
        let letters: [Character] = ["a", "b", "é"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4000 {
            let pattern = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let text = String((0..<Int.random(in: 0...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            let glob = GlobPattern(pattern)
            let composed = text.composedName
            #expect(glob.matchSegments(composed: composed) == glob.backtrack(composed: composed), "\(pattern) against \(text)")
        }
    }

    /// A client's pattern of 50,000 characters against a key of 100,000 is one pass over the
    /// key, not their product (backtracking took 14 s of CPU in a release build; here the time
    /// limit only stops a hang).
    @Test(.timeLimit(.minutes(1))) func aLongPatternAgainstALongKeyCostsOnePass() {
        let key = String(repeating: "a", count: 100_000)
        #expect(!GlobPattern("*" + String(repeating: "a", count: 50_000) + "b").matches(key))
        #expect(GlobPattern("*" + String(repeating: "a", count: 50_000)).matches(key))
        #expect(!GlobPattern("*?" + String(repeating: "a", count: 2_000) + "b*").matches(key))
        #expect(GlobPattern("*?" + String(repeating: "a", count: 2_000) + "*").matches(key))
        #expect(!GlobPattern("*" + String(repeating: "[a]", count: 2_000) + "b*").matches(key))
        #expect(GlobPattern("a*" + String(repeating: "a", count: 40_000) + "*a").matches(key))
        #expect(!GlobPattern("b*" + String(repeating: "a", count: 40_000) + "*a").matches(key))
    }
}
