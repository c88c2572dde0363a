import Foundation
import JarvisCore
import JarvisInspector
import Testing

/// What the faces show of a value is what it says: the JSON view is JSON, and a hidden
/// character in a value shows instead of acting.
struct ValueFormatTextTests {
    @Test func theJSONViewOfAValueHoldingDatesAndDataIsJSON() throws {
        let value: PreferenceValue = .dictionary([
            "created": .date(Date(timeIntervalSince1970: 1_700_000_000)), "blob": .data(Data([1, 2, 3])),
            "tags": .array([.string("swift"), .date(Date(timeIntervalSince1970: 0))]),
        ])
        let text = ValueFormat.full(value, limit: .max)
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed["created"]?.stringValue == "2023-11-14T22:13:20Z", "\(text)")
        #expect(parsed["blob"]?.stringValue == "AQID", "\(text)")
        #expect(parsed["tags"]?.arrayValue?.count == 2)
        #expect(ValueFormat.jsonNote(value) == "Dates are shown as ISO 8601 strings and data as Base64 strings: JSON has neither.")
        #expect(ValueFormat.jsonNote(.dictionary(["k": .string("v")])) == nil)
        // Standing alone, a date reads as itself.
        #expect(ValueFormat.full(.date(Date(timeIntervalSince1970: 1_700_000_000))) == "2023-11-14T22:13:20Z")
    }

    @Test func hiddenCharactersInValuesShowInPreviewsAndInTheFullText() throws {
        #expect(ValueFormat.preview(.string("invoice\u{202E}gnp.exe")) == #"invoice\u{202E}gnp.exe"#)
        #expect(ValueFormat.preview(.string("a\nb\u{200B}")) == #"a⏎b\u{200B}"#)
        #expect(ValueFormat.full(.string("line\nnext\u{2066}")) == "line\n" + #"next\u{2066}"#)
        let json = ValueFormat.full(.dictionary(["k\u{202E}": .string("v\u{FEFF}")]))
        #expect(!json.unicodeScalars.contains { VisibleText.isHidden($0) && $0 != "\n" }, "\(json)")
        #expect(try JSONParser.parse(Array(json.utf8)) == ["k\u{202E}": "v\u{FEFF}"])
    }
}
