import Foundation
import Testing

@testable import JarvisCore

@Suite struct DateTextTests {
    @Test func formatsUTCWithTheFewestExactDigits() {
        #expect(DateText.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(DateText.format(Date(timeIntervalSince1970: 1_705_312_800.5)) == "2024-01-15T10:00:00.500Z")
        #expect(DateText.format(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
        #expect(DateText.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func parsesZonesAndDateOnlyText() {
        #expect(DateText.parse("2024-01-15T12:00:00+02:00") == Date(timeIntervalSince1970: 1_705_312_800))
        #expect(DateText.parse("2024-01-15 10:00:00Z") == Date(timeIntervalSince1970: 1_705_312_800))
        #expect(DateText.parse("2024-01-15") == Date(timeIntervalSince1970: 1_705_276_800))
        #expect(DateText.parse("2024-01-15T10:00Z") == Date(timeIntervalSince1970: 1_705_312_800))
    }

    @Test(arguments: ["", "2024", "2024-13-01", "2024-01-15T25:00:00Z", "2024-01-15T10:00:00Zjunk", "yesterday"])
    func refusesWhatIsNotADate(_ text: String) {
        #expect(DateText.parse(text) == nil)
    }

    @Test func exactTextReadsBackToTheSameBits() {
        for seconds in stride(from: -1e9, through: 1e9, by: 123_456_789.123) {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            if let text = DateText.exactText(date) {
                #expect(DateText.parse(text)?.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
            }
        }
    }
}
