import Foundation
import Testing

@testable import JarvisCore

/// The core names no scanner: a definition that names none applies in every scanner, and
/// one that names a scanner applies there alone.
@Suite struct KeyDefinitionTests {
    @Test func aDefinitionWithoutAScannerAppliesInEveryScanner() {
        let anywhere = KeyDefinition("theme", in: "app.json", type: .string, default: "system")
        #expect(anywhere.scanner == nil)
        #expect(anywhere.matches(PreferenceAddress(scanner: "files", container: "app.json", key: "theme")))
        #expect(anywhere.matches(PreferenceAddress(scanner: "defaults", container: "app.json", key: "theme")))
        #expect(!anywhere.matches(PreferenceAddress(scanner: "files", container: "other.json", key: "theme")))
        let catalog = KeyCatalog([anywhere])
        #expect(catalog.covers(scanner: "files", container: "app.json"))
    }

    @Test func aDefinitionNamingAScannerAppliesThereAlone() {
        let only = KeyDefinition("theme", in: "app.json", scanner: "files", type: .string)
        #expect(only.matches(PreferenceAddress(scanner: "files", container: "app.json", key: "theme")))
        #expect(!only.matches(PreferenceAddress(scanner: "defaults", container: "app.json", key: "theme")))
        #expect(!KeyCatalog([only]).covers(scanner: "defaults", container: "app.json"))
    }
}
