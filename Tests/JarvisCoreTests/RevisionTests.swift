import Foundation
import Testing

@testable import JarvisCore

/// A revision's text: sixteen lower-case hexadecimal digits of the value's hash, zero-padded,
/// the same for equal values and different when the value changes.
@Suite struct RevisionTests {
    @Test func sixteenLowerCaseDigitsPaddedWithZeros() {
        var sawLeadingZero = false
        for index in 0..<400 {
            let text = Revision(of: .integer(Int64(index))).text
            #expect(text.count == 16)
            #expect(text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(text)")
            // The digits are the number they spell, written back the usual way and padded.
            let number = UInt64(text, radix: 16)
            let spelled = number.map { String($0, radix: 16) }
            #expect(spelled.map { String(repeating: "0", count: 16 - $0.count) + $0 } == text)
            if text.hasPrefix("0") { sawLeadingZero = true }
        }
        // About one hash in sixteen starts with a zero nibble: the padding was exercised.
        #expect(sawLeadingZero)
    }

    @Test func equalValuesShareARevisionAndChangesShowInIt() {
        #expect(Revision(of: .string("a")) == Revision(of: .string("a")))
        #expect(Revision(of: .string("a")) != Revision(of: .string("b")))
        #expect(Revision(of: .integer(1)) != Revision(of: .string("1")))
    }

    /// A revision a client sends back is the revision it was given: the agent keeps a usual
    /// revision as a number and any other text as it came, and both compare, hash, encode
    /// and write as their text.
    @Test func revisionsReadFromTextAreTheRevisionsThatWroteIt() throws {
        for value: PreferenceValue in [.integer(0), .string("a"), .boolean(true), .data(Data([1, 2])), .real(-0.5)] {
            let made = Revision(of: value)
            let read = Revision(made.text)
            #expect(read == made)
            #expect(read.hashValue == made.hashValue)
            #expect(Set([read, made]).count == 1)
            var written: [UInt8] = []
            made.writeJSON(into: &written)
            #expect(written == Array("\"\(made.text)\"".utf8))
        }
        #expect(Revision.absent.text == "0000000000000000")
        // Anything else is kept as it is: never taken for a usual revision it only resembles.
        for text in ["", "0", "00000000000000000", "ABCDEF0123456789", "abcdef012345678g", "\u{e9}bcdef012345678", "ab\"c"] {
            let revision = Revision(text)
            #expect(revision.text == text)
            #expect(revision != Revision.absent)
            var written: [UInt8] = []
            revision.writeJSON(into: &written)
            #expect(written == JSONWriter.bytes(.string(text)))
        }
        #expect(Revision("ABCDEF0123456789") != Revision("abcdef0123456789"))
        #expect(Revision("abcdef0123456789").text == "abcdef0123456789")
        // Codable carries the text.
        let encoded = try JSONEncoder().encode([Revision("00ff00ff00ff00ff"), Revision("other")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["00ff00ff00ff00ff","other"]"#)
        #expect(try JSONDecoder().decode([Revision].self, from: encoded) == [Revision("00ff00ff00ff00ff"), Revision("other")])
    }
}
