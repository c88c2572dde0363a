import Testing

@testable import jarvis

/// What is typed into the terminal inspector's filter or a prompt shows as it is: a bidi
/// override or a zero-width space pasted in is drawn as its escape, never obeyed, and the
/// cursor stays after what was typed.
@Suite struct LineEditorTests {
    @Test func aPastedHiddenCharacterShowsAsItsEscape() {
        var editor = LineEditor("invoice")
        for character in "\u{202E}gnp" {
            let edited = editor.handle(.character(character))
            #expect(edited)
        }
        #expect(editor.text == "invoice\u{202E}gnp")
        let shown = editor.visible(width: 80)
        #expect(shown.text == #"invoice\u{202E}gnp"#)
        #expect(shown.cursor == shown.text.count)
        // In a narrow field the cursor's end stays in sight.
        let narrow = editor.visible(width: 6)
        #expect(narrow.text == "E}gnp")
        #expect(narrow.cursor == 5)
        _ = editor.handle(.home)
        #expect(editor.visible(width: 80).cursor == 0)
    }
}
