import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// What each plist format can hold: new suites are binary, XML suites keep their format and
/// say when a date lost its fraction, and refuse characters XML 1.0 cannot hold.
@Suite struct PlistFolderStoreFormatTests {
    let folder: TemporaryFolder
    let hub: JarvisHub

    init() throws {
        folder = try TemporaryFolder()
        hub = JarvisHub()
        hub.register(DefaultsScanner.defaults(folder: folder.url))
    }

    func address(_ suite: String, _ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "defaults", container: suite, key: key)
    }

    func head(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.file(name)).prefix(8), as: UTF8.self)
    }

    static let withFraction = Date(timeIntervalSince1970: 1_705_312_800.25)

    @Test func newSuitesAreBinaryAndKeepAFractionOfASecond() throws {
        let stored = try hub.set(address("fresh", "when"), to: .date(Self.withFraction))
        #expect(try head("fresh.plist") == "bplist00")
        #expect(stored.value == .date(Self.withFraction))
        #expect(stored.noting(roundingOf: .date(Self.withFraction)).notes.isEmpty)
    }

    @Test func anXMLSuiteStaysXMLAndSaysTheDateWasRounded() throws {
        try folder.writePlist("old.plist", ["keep": "me"])
        let sent = PreferenceValue.dictionary(["at": .array([.date(Self.withFraction), .date(Self.withFraction)])])
        let stored = try hub.set(address("old", "times"), to: sent)
        #expect(try head("old.plist").hasPrefix("<?xml"))
        #expect(try folder.readPlist("old.plist").format == .xml)
        let notes = stored.noting(roundingOf: sent).notes
        #expect(notes.count == 1)
        #expect(notes.first?.contains("'times': the date at /at/0 (and 1 more date)") == true)
        #expect(notes.first?.contains("2024-01-15T10:00:00Z") == true)
        #expect(notes.first?.contains("XML property list") == true)
        // A whole-second date needs no note.
        let whole = try hub.set(address("old", "whole"), to: .date(Date(timeIntervalSince1970: 1_705_312_800)))
        #expect(whole.noting(roundingOf: .date(Date(timeIntervalSince1970: 1_705_312_800))).notes.isEmpty)
    }

    @Test func controlCharactersAreRefusedForXMLSuitesAndKeptInBinaryOnes() throws {
        try folder.writePlist("old.plist", ["keep": "me"])
        let before = try Data(contentsOf: folder.file("old.plist"))
        for value: PreferenceValue in ["bell\u{7}", ["nested": ["ok", "esc\u{1B}[2J"]], ["bad\u{0}name": 1]] {
            let error = #expect(throws: JarvisError.self) { try hub.set(address("old", "title"), to: value) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.message.contains("'title'") == true)
            #expect(error?.message.contains("XML 1.0 cannot hold") == true)
            #expect(error?.message.contains("type data") == true)
        }
        let named = #expect(throws: JarvisError.self) { try hub.set(address("old", "a\u{8}b"), to: "x") }
        #expect(named?.message.contains("U+0008") == true)
        #expect(named?.message.contains("key name") == true)
        let nested = #expect(throws: JarvisError.self) {
            try hub.set(address("old", "title"), to: ["nested": ["ok", "esc\u{1B}[2J"]])
        }
        #expect(nested?.message.contains("U+001B") == true)
        #expect(nested?.message.contains("/nested/1") == true)
        // U+FFFE is no control character: the message must not call it one.
        let noncharacter = #expect(throws: JarvisError.self) { try hub.set(address("old", "title"), to: "a\u{FFFE}b") }
        #expect(noncharacter?.message.contains("U+FFFE, a character that XML 1.0 cannot hold") == true)
        #expect(try Data(contentsOf: folder.file("old.plist")) == before)
        // Tab, newline and carriage return are legal XML, and so is everything in a binary suite.
        #expect(try hub.set(address("old", "lines"), to: "a\tb\r\nc").value == "a\tb\r\nc")
        try folder.writePlist("bin.plist", ["keep": "me"], format: .binary)
        #expect(try hub.set(address("bin", "title"), to: "bell\u{7}").value == "bell\u{7}")
        #expect(try folder.readPlist("bin.plist").format == .binary)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func unsignedIntegersRoundTripInBothFormats(format: PropertyListSerialization.PropertyListFormat) throws {
        try folder.writePlist("nums.plist", ["big": NSNumber(value: UInt64.max)], format: format)
        let big = try #require(PreferenceValue.integer(decimal: "18446744073709551615"))
        let item = try hub.get(address("nums", "big"))
        #expect(item.value == big)
        #expect(item.isWritable)
        let other = try #require(PreferenceValue.integer(decimal: "9223372036854775808"))
        #expect(try hub.set(address("nums", "other"), to: other).value == other)
        #expect(try hub.get(address("nums", "big")).value == big)
        #expect(try folder.readPlist("nums.plist").format == format)
        let beyond = try #require(PreferenceValue.integer(decimal: "18446744073709551616"))
        let error = #expect(throws: JarvisError.self) { try hub.set(address("nums", "beyond"), to: beyond) }
        #expect(error?.code == .typeMismatch)
    }
}
