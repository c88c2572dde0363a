import Testing

@testable import JarvisCommandLine

@Suite struct SuggestionTests {
    @Test func aNewNameOneOrTwoEditsFromAnotherIsATypo() {
        let keys = ["maintenance_mode", "port", "server1", "theme"]
        #expect(Suggestion.typo(of: "maintenence_mode", among: keys) == "maintenance_mode")
        #expect(Suggestion.typo(of: "maintenance_mod", among: keys) == "maintenance_mode")
        #expect(Suggestion.typo(of: "prot", among: keys) == "port")
        #expect(Suggestion.typo(of: "Theme", among: keys) == "theme")
        #expect(Suggestion.typo(of: "themes", among: keys) == "theme")
    }

    @Test func otherNewNamesAreNot() {
        let keys = ["maintenance_mode", "port", "server1", "ab", "theme"]
        #expect(Suggestion.typo(of: "server2", among: keys) == nil)
        #expect(Suggestion.typo(of: "server", among: keys) == nil)
        #expect(Suggestion.typo(of: "ac", among: keys) == nil)
        #expect(Suggestion.typo(of: "host", among: keys) == nil)
        #expect(Suggestion.typo(of: "theme_color", among: keys) == nil)
        #expect(Suggestion.typo(of: "port", among: keys) == nil)
        // Three edits from the nearest: a new name, not a typo.
        #expect(Suggestion.typo(of: "maintenance_mood_x", among: keys) == nil)
    }
}
