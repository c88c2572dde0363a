import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

private struct Profile: Codable, Equatable {
    var name: String
    var age: Int
    var ratio: Double
    var isAdmin: Bool
    var tags: [String]
    var joined: Date
}

private let profile = Profile(name: "Ada", age: 36, ratio: 0.5, isAdmin: true, tags: ["a", "b"], joined: sampleDate)

@Suite struct EncodedDataTests {
    @Test func jsonFromJSONEncoderIsShownAsStructure() throws {
        let data = try JSONEncoder().encode(profile)
        let decoded = try #require(EncodedData.decode(data))
        #expect(decoded.encoding == .json)
        guard case .dictionary(let values) = decoded.value else {
            Issue.record("expected a dictionary, got \(decoded.value)")
            return
        }
        #expect(values["name"] == "Ada")
        #expect(values["age"] == .integer(36))
        #expect(values["ratio"] == .real(0.5))
        #expect(values["isAdmin"] == .boolean(true))
        #expect(values["tags"] == ["a", "b"])
        // JSONEncoder's default date strategy writes a number; it stays a number.
        #expect(values["joined"]?.type == .integer || values["joined"]?.type == .real)
    }

    @Test func editedJSONIsWrittenBackForJSONDecoder() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoded = try #require(EncodedData.decode(try encoder.encode(profile)))
        guard case .dictionary(var values) = decoded.value else { return }
        #expect(values["joined"]?.type == .string)
        values["age"] = 37
        values["ratio"] = 2.0
        let data = try EncodedData.encode(.dictionary(values), as: .json, current: nil, key: "profile")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var expected = profile
        expected.age = 37
        expected.ratio = 2.0
        #expect(try decoder.decode(Profile.self, from: data) == expected)
        // A whole real is written as 2.0, so it reads back as a real.
        #expect(EncodedData.decode(data)?.value == .dictionary(values))
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func propertyListDataKeepsItsFormat(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let original = try encoder.encode(profile)
        let decoded = try #require(EncodedData.decode(original))
        #expect(decoded.encoding == .propertyList)
        guard case .dictionary(var values) = decoded.value else { return }
        #expect(values["joined"] == .date(sampleDate))
        values["name"] = "Grace"
        let data = try EncodedData.encode(.dictionary(values), as: .propertyList, current: original, key: "profile")
        #expect(EncodedData.propertyListFormat(of: data) == format)
        var expected = profile
        expected.name = "Grace"
        #expect(try PropertyListDecoder().decode(Profile.self, from: data) == expected)
    }

    @Test func otherBytesStayData() {
        #expect(EncodedData.decode(Data([0, 1, 2])) == nil)
        #expect(EncodedData.decode(Data("\"just a string\"".utf8)) == nil)
        #expect(EncodedData.decode(Data("42".utf8)) == nil)
        #expect(EncodedData.decode(Data("{\"a\": null}".utf8)) == nil)
        #expect(EncodedData.decode(Data("{broken".utf8)) == nil)
        // Numbers beyond 64 bits are exact now (`BigNumber`), so such JSON is shown as a structure.
        #expect(EncodedData.decode(Data("{\"big\": 18446744073709551615}".utf8))?.1 == .json)
        #expect(EncodedData.decode(Data()) == nil)
    }

    @Test func valuesJSONCannotHoldAreRefused() {
        for value: PreferenceValue in [["when": .date(sampleDate)], [.data(Data([1]))], ["x": .real(.nan)], "fragment"]
        {
            #expect(throws: JarvisError.self) { try EncodedData.encode(value, as: .json, current: nil, key: "k") }
        }
    }

    @Test func dataSentAsDataReplacesTheBytes() throws {
        let bytes = Data("not json".utf8)
        let object = try DefaultsEntries.object(for: .data(bytes), encoding: .json, current: nil, key: "k")
        #expect(object as? Data == bytes)
    }

    @Test func jsonTextIsCompactSortedAndEscaped() throws {
        let value: PreferenceValue = ["b": [1, 1.0, 1e-7, true, false], "a": "line\n\"quote\" \u{1} é"]
        let data = Data(JSONWriter.bytes(try value.plainJSON(path: "k")))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text == #"{"a":"line\n\"quote\" \u0001 é","b":[1,1.0,1e-07,true,false]}"#)
        #expect(EncodedData.decode(data)?.value == value)
    }
}
