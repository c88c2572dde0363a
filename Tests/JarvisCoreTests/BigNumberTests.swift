import Foundation
import Testing

@testable import JarvisCore

@Suite struct BigNumberTests {
    static let bigInteger = PreferenceValue.integer(decimal: "12345678901234567890")
    static let unsignedMax = PreferenceValue.integer(decimal: "18446744073709551615")
    static let negative = PreferenceValue.integer(decimal: "-99999999999999999999999")
    static let hugeReal = PreferenceValue.real(literal: "1e400")

    @Test func numbersChooseTheirCase() throws {
        #expect(PreferenceValue.integer(decimal: "+000042") == .integer(42))
        #expect(PreferenceValue.integer(decimal: "-9223372036854775808") == .integer(.min))
        #expect(PreferenceValue.integer(decimal: "9223372036854775808") != .integer(.max))
        #expect(PreferenceValue.integer(decimal: "0012345678901234567890") == Self.bigInteger)
        #expect(PreferenceValue.integer(decimal: "12.5") == nil)
        #expect(PreferenceValue.integer(decimal: "-") == nil)
        #expect(PreferenceValue.real(literal: "1.5") == .real(1.5))
        #expect(PreferenceValue.real(literal: "1e-400")?.type == .real)
        #expect(PreferenceValue.real(literal: "0.0e-400") == .real(0))
        #expect(PreferenceValue.real(literal: "abc") == nil)
        #expect(PreferenceValue.number(try #require(JSONNumber(text: "-1e400"))) == .real(literal: "-1e400"))
    }

    @Test(arguments: [bigInteger, unsignedMax, negative, hugeReal])
    func keepsTypeAndDigitsThroughTheWire(_ value: PreferenceValue?) throws {
        let value = try #require(value)
        guard case .bigNumber(let number) = value else {
            Issue.record("\(value) is not a big number")
            return
        }
        let text = JSONWriter.string(value.json)
        #expect(text == #"{"\#(number.kind == .integer ? "$integer" : "$real")":"\#(number.literal)"}"#)
        let back = try PreferenceValue(json: try JSONParser.parse(text))
        #expect(back == value)
        #expect(try PreferenceValue(json: try JSONParser.parse(text), as: value.type) == value)
        // A plain literal, as a client that knows no wrapper sends it, is read exactly too.
        #expect(try PreferenceValue(json: .number(number.json)) == value)
        #expect(try PreferenceValue(plainJSON: try value.plainJSON()) == value)
        #expect(value.preview() == number.literal)
    }

    @Test func wrappersAcceptNumbersAndRefuseNonsense() throws {
        #expect(try PreferenceValue(json: JSONParser.parse(#"{"$integer":"7"}"#)) == .integer(7))
        #expect(try PreferenceValue(json: JSONParser.parse(#"{"$integer":12345678901234567890}"#)) == Self.bigInteger)
        #expect(try PreferenceValue(json: JSONParser.parse(#"{"$real":1e400}"#)) == Self.hugeReal)
        #expect(try PreferenceValue(json: JSONParser.parse(#"{"$real":"2.5"}"#)) == .real(2.5))
        for bad in [#"{"$integer":"1.5"}"#, #"{"$integer":"12a"}"#, #"{"$integer":1.5}"#, #"{"$real":"x"}"#] {
            let error = #expect(throws: JarvisError.self) { try PreferenceValue(json: JSONParser.parse(bad)) }
            #expect(error?.code == .typeMismatch)
        }
    }

    @Test func revisionsTellBigNumbersApart() throws {
        let values = [Self.bigInteger, Self.unsignedMax, Self.negative, Self.hugeReal, .real(literal: "1E400")]
        let revisions = Set(try values.map { Revision(of: try #require($0)) })
        #expect(revisions.count == values.count)
        #expect(
            Revision(of: try #require(Self.bigInteger))
                == Revision(of: try #require(.integer(decimal: "12345678901234567890"))))
    }
}
