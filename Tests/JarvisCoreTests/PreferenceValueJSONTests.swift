import Foundation
import Testing

@testable import JarvisCore

@Suite struct PreferenceValueJSONTests {
    static let samples: [PreferenceValue] = [
        .string("héllo\n\"quoted\""), .string("$date"), .integer(0), .integer(.max), .integer(.min), .real(0.5),
        .real(1.0), .real(-3.0), .real(1e300), .real(.infinity), .real(-.infinity), .boolean(true), .boolean(false),
        .date(Date(timeIntervalSinceReferenceDate: 0)),
        .date(Date(timeIntervalSinceReferenceDate: 727_000_000.123456789)),
        .date(Date(timeIntervalSince1970: -1_000_000.25)), .data(Data()), .data(Data([0, 1, 2, 255])),
        .array([]), .dictionary([:]),
        .array([.integer(1), .real(1), .string("1"), .date(Date(timeIntervalSinceReferenceDate: 1.5))]),
        .dictionary([
            "$price": .integer(3),
            "nested": .dictionary([
                "deeper": .array([.dictionary(["when": .date(Date(timeIntervalSinceReferenceDate: 100))])])
            ]),
            "blob": .data(Data([9, 8, 7])),
        ]),
    ]

    @Test(arguments: samples)
    func roundTripsThroughWireText(_ value: PreferenceValue) throws {
        let text = JSONWriter.bytes(value.json)
        let back = try PreferenceValue(json: try JSONParser.parse(text))
        #expect(back == value)
        #expect(back.type == value.type)
        let typed = try PreferenceValue(json: try JSONParser.parse(text), as: value.type)
        #expect(typed == value)
    }

    @Test func nanRoundTripsAsNaN() throws {
        let back = try PreferenceValue(json: try JSONParser.parse(JSONWriter.bytes(PreferenceValue.real(.nan).json)))
        guard case .real(let number) = back else {
            Issue.record("NaN came back as \(back)")
            return
        }
        #expect(number.isNaN)
    }

    @Test func wholeRealsAreWrappedAndFractionalOnesAreNot() {
        #expect(JSONWriter.string(PreferenceValue.real(1).json) == #"{"$real":1.0}"#)
        #expect(JSONWriter.string(PreferenceValue.real(0.25).json) == "0.25")
        #expect(JSONWriter.string(PreferenceValue.integer(7).json) == "7")
    }

    @Test func dictionariesWithDollarKeysAreWrapped() {
        #expect(JSONWriter.string(PreferenceValue.dictionary(["$x": 1]).json) == #"{"$dictionary":{"$x":1}}"#)
    }

    @Test func exactDatesUseShortText() {
        let date = Date(timeIntervalSince1970: 1_705_312_800.25)
        #expect(JSONWriter.string(PreferenceValue.date(date).json) == #"{"$date":"2024-01-15T10:00:00.250Z"}"#)
    }

    @Test func nullAndUnknownWrappersAreRefusedWithAClearMessage() throws {
        #expect(throws: JarvisError.self) { try PreferenceValue(json: .null) }
        let parsed = try JSONParser.parse(#"{"a":[1,{"$oops":2}]}"#)
        let error = #expect(throws: JarvisError.self) { try PreferenceValue(json: parsed) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.message.contains("/a/1") == true)
    }

    @Test func typedReadingAcceptsWhatAPersonTypes() throws {
        #expect(try PreferenceValue(json: .number(JSONNumber(5)), as: .real) == .real(5))
        #expect(
            try PreferenceValue(json: .string("2024-01-15"), as: .date)
                == .date(Date(timeIntervalSince1970: 1_705_276_800)))
        #expect(try PreferenceValue(json: .string("aGk="), as: .data) == .data(Data("hi".utf8)))
        #expect(throws: JarvisError.self) { try PreferenceValue(json: .string("five"), as: .integer) }
        #expect(throws: JarvisError.self) { try PreferenceValue(json: .number(JSONNumber(1)), as: .string) }
        #expect(throws: JarvisError.self) { try PreferenceValue(json: .bool(true), as: .integer) }
    }
}
