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
}
