import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// A removed member comes back byte for byte from its hint, only when the file still reads as
/// it did without it; a hint that does not fit (or was tampered with) is ignored, never trusted.
@Suite struct JSONFileEditorRestoringTests {
    static let original = Array("{\n  \"a\": 1,\n  // kept comment\n  \"theme\": \"dark\",\n  \"z\": [1, 2]\n}\n".utf8)

    @Test func aRemovedMemberComesBackExactly() throws {
        let (removed, hint) = try #require(try JSONFileEditor(bytes: Self.original).removingWithHint("theme"))
        let restored = try JSONFileEditor(bytes: removed).restoring("theme", to: "dark", hint: hint)
        #expect(restored == Self.original)
        // Another value than the one removed: the hint does not apply.
        #expect(try JSONFileEditor(bytes: removed).restoring("theme", to: "light", hint: hint) == nil)
    }

    @Test func aHintThatDoesNotFitIsIgnored() throws {
        let (removed, hint) = try #require(try JSONFileEditor(bytes: Self.original).removingWithHint("theme"))
        // The file changed elsewhere: the offset no longer falls between members.
        let changed = Array("{\"a\": 1, \"z\": [1, 2], \"more\": true}\n".utf8)
        #expect(try JSONFileEditor(bytes: changed).restoring("theme", to: "dark", hint: hint) == nil)
        let editor = try JSONFileEditor(bytes: removed)
        for bad in [
            #"{"at":9223372036854775807,"length":9223372036854775807,"text":""}"#,
            #"{"at":-1,"length":0,"text":""}"#, #"{"at":0,"length":0,"text":"not base64!"}"#, "not json",
        ] {
            #expect(editor.restoring("theme", to: "dark", hint: Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
