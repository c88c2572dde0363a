import Foundation
import Testing

@testable import JarvisCore

/// One-key changes leave the rest of a file as it was.
@Suite struct PropertyListDocumentTests {
    static let xml = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <!-- written by hand, two spaces -->
          <key>zeta</key>
          <string>last &amp; first</string>
          <key>alpha</key>
          <integer>1</integer>
          <key>list</key>
          <array>
            <real>1.5</real>
          </array>
        </dict>
        </plist>

        """.utf8)

    private func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
    }

    /// The lines of `new` that differ from `old`'s, as (removed, added).
    private func diff(_ old: [UInt8], _ new: [UInt8]) -> (removed: [String], added: [String]) {
        let before = lines(old)
        let after = lines(new)
        var prefix = 0
        while prefix < min(before.count, after.count), before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(before.count, after.count) - prefix,
            before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        {
            suffix += 1
        }
        return (Array(before[prefix..<(before.count - suffix)]), Array(after[prefix..<(after.count - suffix)]))
    }

    @Test func changingOneXMLValueIsAOneLineDiff() throws {
        let document = try PropertyListDocument(Self.xml)
        #expect(document.format == .xml)
        #expect(document.members.map(\.key) == ["zeta", "alpha", "list"])
        let changed = try document.setting("alpha", to: .integer(2))
        #expect(diff(Self.xml, changed.bytes) == (["  <integer>1</integer>"], ["  <integer>2</integer>"]))
        #expect(try PropertyListDocument(changed.bytes).members == changed.members)
        // Again on the changed document (its layout moved with the edit).
        let twice = try changed.setting("zeta", to: .string("<new>"))
        #expect(
            diff(changed.bytes, twice.bytes) == (
                ["  <string>last &amp; first</string>"], ["  <string>&lt;new&gt;</string>"]
            ))
        #expect(try PropertyListDocument(twice.bytes).members == twice.members)
    }

    @Test func addingAndRemovingXMLKeysTouchesOnlyTheirLines() throws {
        let document = try PropertyListDocument(Self.xml)
        let added = try document.setting("new", to: .dictionary([.init("inner", .boolean(true))]))
        #expect(
            diff(Self.xml, added.bytes)
                == ([], ["  <key>new</key>", "  <dict>", "    <key>inner</key>", "    <true/>", "  </dict>"]))
        #expect(try PropertyListDocument(added.bytes).members == added.members)
        let removed = try added.setting("alpha", to: nil)
        #expect(diff(added.bytes, removed.bytes) == (["  <key>alpha</key>", "  <integer>1</integer>"], []))
        #expect(try PropertyListDocument(removed.bytes).members == removed.members)
        // Removing a key that is not there changes nothing.
        #expect(try removed.setting("absent", to: nil).bytes == removed.bytes)
    }

    @Test func aDictionaryWithNoRoomForEditsIsWrittenWhole() throws {
        let bytes = Array("<plist version=\"1.0\"><dict/></plist>".utf8)
        let changed = try PropertyListDocument(bytes).setting("k", to: .string("v"))
        #expect(try PropertyListCodec.read(changed.bytes).value == .dictionary([.init("k", .string("v"))]))
        #expect(changed.bytes == (try PropertyListCodec.write(.dictionary([.init("k", .string("v"))]), as: .xml)))
        // And the next edit is in place again.
        let next = try changed.setting("k", to: .string("w"))
        #expect(diff(changed.bytes, next.bytes) == (["\t<string>v</string>"], ["\t<string>w</string>"]))
    }

    @Test func aBinaryChangeKeepsEveryOtherValue() throws {
        let original = try PropertyListCodec.write(PropertyListCodecTests.everything, as: .binary)
        let document = try PropertyListDocument(original)
        let changed = try document.setting("small", to: .integer(201))
        guard case .dictionary(var expected) = PropertyListCodecTests.everything else { return }
        expected[4].value = .integer(201)
        #expect(try PropertyListCodec.read(changed.bytes).value == .dictionary(expected))
        #expect(changed.format == .binary)
        var reader = BinaryPropertyListReader(changed.bytes, limits: .standard)
        #expect(try reader.value(forKey: "uid") == .uid(42))
    }

    @Test func whatXMLCannotHoldIsRefusedAndDatesKeepWholeSeconds() throws {
        let document = try PropertyListDocument(Self.xml)
        #expect(throws: PropertyListError.self) { try document.setting("alpha", to: .string("\u{7}")) }
        let dated = try document.setting("when", to: .date(100.75))
        #expect(dated.value(forKey: "when") == .date(100))
        #expect(try PropertyListDocument(dated.bytes).value(forKey: "when") == .date(100))
    }

    @Test func aTopLevelThatIsNotADictionaryIsRefused() {
        #expect(throws: PropertyListError.self) {
            try PropertyListDocument(Array("<plist version=\"1.0\"><array/></plist>".utf8))
        }
    }
}
