import JarvisCore
import Testing

/// The one rule every face shows foreign text by: controls, separators, bidi controls and
/// zero-width characters are written visibly; everything else reads as stored.
struct VisibleTextTests {
    @Test func bidiControlsSeparatorsAndZeroWidthCharactersShowAsEscapes() {
        #expect(VisibleText.escaped("invoice\u{202E}gnp.exe") == #"invoice\u{202E}gnp.exe"#)
        let hidden: [UInt32] = [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C,
            0x2028, 0x2029, 0x200B, 0x200C, 0x200D, 0xFEFF, 0x2060, 0x85, 0x9B, 0x7F, 0x00, 0x1B,
        ]
        for value in hidden {
            let scalar = Unicode.Scalar(value)!
            #expect(VisibleText.isHidden(scalar), "U+\(String(value, radix: 16))")
            let shown = VisibleText.escaped("a" + String(Character(scalar)) + "b")
            #expect(!shown.unicodeScalars.contains(scalar), "U+\(String(value, radix: 16)) stays raw in \(shown)")
            #expect(shown.hasPrefix("a\\") && shown.hasSuffix("b"), "\(shown)")
        }
        #expect(VisibleText.escaped("a\u{2066}b\u{2069}") == #"a\u{2066}b\u{2069}"#)
        #expect(VisibleText.escaped("\u{1B}[2J\r\n\t\u{9B}") == #"\x1B[2J\r\n\t\u{9B}"#)
    }

    @Test func printableTextReadsAsStored() {
        for text in ["plain", #"back\slash \u{202E}"#, "é中文🙂", "Ünïcødé", "שלום עולם", "مرحبا", "tab-free"] {
            #expect(VisibleText.escaped(text) == text)
        }
        #expect(VisibleText.escapedLines("one\ntwo\u{202E}") == "one\n" + #"two\u{202E}"#)
    }

    @Test func jsonKeepsItsMeaningAndShowsHiddenCharacters() throws {
        let value: JSONValue = ["invoice\u{202E}gnp.exe": .string("x\u{2028}\u{200B}y")]
        let shown = VisibleText.escapedJSON(JSONWriter.string(value))
        #expect(!shown.unicodeScalars.contains { VisibleText.isHidden($0) })
        #expect(shown.contains(#"invoice\u202egnp.exe"#), "\(shown)")
        #expect(try JSONParser.parse(Array(shown.utf8)) == value)
    }
}
