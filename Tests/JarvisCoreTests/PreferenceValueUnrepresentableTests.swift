import Foundation
import Testing

@testable import JarvisCore

/// Dates and reals no wire text reads back exactly are served as `$unrepresentable` objects
/// that read back as the very bits stored. (Values are named by index and preview: Foundation's
/// `Date.description` traps on a NaN date, so a failing expectation must never print one.)
@Suite struct PreferenceValueUnrepresentableTests {
    static let odd: [PreferenceValue] = [
        .date(Date(timeIntervalSinceReferenceDate: .nan)),
        .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: 0xFFF8_0000_0000_0001))),
        .date(Date(timeIntervalSinceReferenceDate: .infinity)),
        .date(Date(timeIntervalSinceReferenceDate: -.infinity)),
        .date(Date(timeIntervalSinceReferenceDate: 1e300)),
        .date(Date(timeIntervalSinceReferenceDate: -1e15)),
        .real(Double(bitPattern: 0x7FF8_0000_0000_0001)),
        .real(Double(bitPattern: 0xFFF8_0000_0000_0000)),
    ]

    private static func bits(_ value: PreferenceValue) -> UInt64? {
        switch value {
        case .date(let date): date.timeIntervalSinceReferenceDate.bitPattern
        case .real(let number): number.bitPattern
        default: nil
        }
    }

    @Test(arguments: odd.indices)
    func readsBackAsTheSameBits(_ index: Int) throws {
        let value = Self.odd[index]
        let text = JSONWriter.string(value.json)
        #expect(text.contains(#""$unrepresentable":"\#(value.type.rawValue)""#), "\(text)")
        #expect(text.contains(#""$problem":"#), "\(text)")
        let back = try PreferenceValue(json: try JSONParser.parse(text))
        #expect(back.type == value.type)
        #expect(Self.bits(back) == Self.bits(value), "\(text)")
        #expect(back == value, "\(text)")
        #expect(try PreferenceValue(json: try JSONParser.parse(text), as: value.type) == value, "\(text)")
    }

    @Test func theBytesAreTheBigEndianDoubleABinaryPropertyListStores() {
        let nan = PreferenceValue.date(Date(timeIntervalSinceReferenceDate: .nan))
        #expect(nan.json.objectValue?["$bytes"] == .string(Data([0x7F, 0xF8, 0, 0, 0, 0, 0, 0]).base64EncodedString()))
        #expect(nan.unrepresentableProblem?.contains("NaN seconds from 2001-01-01") == true)
        #expect(nan.preview(limit: 200).hasPrefix("<unrepresentable date: a date of NaN seconds"))
    }

    @Test func protocolDocumentShowsTheWireShapeExactly() throws {
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../docs/PROTOCOL.md"), encoding: .utf8)
        let line = JSONWriter.string(PreferenceValue.date(Date(timeIntervalSinceReferenceDate: .nan)).json)
        #expect(document.contains("\n" + line + "\n"), "PROTOCOL.md lacks \(line)")
        #expect(document.contains(#""type":"date","value":\#(line)"#), "PROTOCOL.md lacks the get answer")
    }

    @Test func valuesTheWireSpellsAreNotUnrepresentable() {
        let spelled: [PreferenceValue] = [
            .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 1e15 - 1)),
            .real(.nan), .real(.infinity), .real(-0.0), .string("x"),
            .array([.date(Date(timeIntervalSinceReferenceDate: .nan))]),
        ]
        for value in spelled { #expect(value.unrepresentableProblem == nil, "\(value.preview())") }
        #expect(JSONWriter.string(PreferenceValue.real(.nan).json) == #"{"$real":"NaN"}"#)
    }

    @Test func aNaNDateInsideADictionaryKeepsItsNeighbours() throws {
        let value = PreferenceValue.dictionary([
            "when": .date(Date(timeIntervalSinceReferenceDate: .nan)), "name": "Ada",
        ])
        let text = JSONWriter.string(value.json)
        #expect(try PreferenceValue(json: try JSONParser.parse(text)) == value, "\(text)")
    }

    @Test func badBytesOrKindsAreRefusedByName() throws {
        for text in [
            #"{"$unrepresentable":"date","$bytes":"AAAA"}"#, #"{"$unrepresentable":"date","$bytes":7}"#,
            #"{"$unrepresentable":"string","$bytes":"f/gAAAAAAAA="}"#,
            #"{"$unrepresentable":"date","$bytes":"f/gAAAAAAAA=","$other":1}"#,
        ] {
            #expect(throws: JarvisError.self, "\(text)") { try PreferenceValue(json: try JSONParser.parse(text)) }
        }
    }
}
