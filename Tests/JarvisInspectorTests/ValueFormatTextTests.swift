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

    /// JSON has no NaN or infinity: inside a dictionary or an array they are written as the
    /// strings the wire's `$real` uses, and the note says so.
    @Test func theJSONViewOfAValueHoldingNonFiniteNumbersIsJSON() throws {
        let value: PreferenceValue = .dictionary([
            "ratio": .real(.nan), "limits": .array([.real(.infinity), .real(-.infinity), .real(1.5)]),
        ])
        let text = ValueFormat.full(value, limit: .max)
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed["ratio"]?.stringValue == "NaN", "\(text)")
        #expect(parsed["limits"] == ["Infinity", "-Infinity", 1.5], "\(text)")
        #expect(
            ValueFormat.jsonNote(value)
                == "Non-finite numbers are shown as the strings \"NaN\", \"Infinity\" and \"-Infinity\": JSON has no such numbers.")
        let both: PreferenceValue = .array([.date(Date(timeIntervalSince1970: 0)), .real(.nan)])
        #expect(
            ValueFormat.jsonNote(both)
                == "Dates are shown as ISO 8601 strings and non-finite numbers as the strings \"NaN\", \"Infinity\" and \"-Infinity\": JSON has neither.")
        // Standing alone, or in a one-line preview, a real reads as people write it.
        #expect(ValueFormat.full(.real(.nan)) == "nan")
        #expect(ValueFormat.preview(value) == #"{"limits": [inf, -inf, 1.5], "ratio": nan}"#)
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

/// A date or real the wire cannot spell (a date of NaN) reads as its type and problem in every
/// view, and the JSON view stays JSON.
@Suite struct ValueFormatUnrepresentableTests {
    @Test func aDateOfNaNShowsItsProblemAndTheJSONViewStaysJSON() throws {
        let nan = PreferenceValue.date(Date(timeIntervalSinceReferenceDate: .nan))
        #expect(ValueFormat.preview(nan, limit: 200).hasPrefix("<unrepresentable date: a date of NaN seconds"))
        #expect(ValueFormat.full(nan).contains("NaN seconds from 2001-01-01"))
        let odd = PreferenceValue.real(Double(bitPattern: 0x7FF8_0000_0000_0001))
        #expect(ValueFormat.full(odd).hasPrefix("<unrepresentable real: a NaN whose bits (7FF8000000000001)"))
        let text = ValueFormat.full(.dictionary(["when": nan, "ratio": odd, "name": "Ada"]), limit: .max)
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed["when"]?.stringValue?.hasPrefix("<unrepresentable date") == true, "\(text)")
        #expect(parsed["name"]?.stringValue == "Ada", "\(text)")
    }
}
