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
}
