import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// Byte-exact edits on real-world-shaped files, through the `files` scanner and a real hub.
///
/// Each test states the expected file independently of the editor: the original bytes with
/// one snippet (found by searching the original) replaced by the new text, so any byte the
/// editor touches beyond the edited value fails the test.
@Suite final class JSONFileEditorTests {
    let folder: URL
    let hub = JarvisHub()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        hub.register(.jsonFiles(in: [folder]))
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// VS Code's user settings: tabs, comments, an inline array, an escape, a trailing comma.
    static let settings = """
        // Place your settings in this file to overwrite the default settings
        {
        \t// Controls the font size in pixels.
        \t"editor.fontSize": 14,
        \t"editor.rulers": [80, 120],
        \t/* Files */
        \t"files.exclude": {
        \t\t"**/.git": true,
        \t\t"**/node_modules": true
        \t},
        \t"workbench.colorTheme": "Default Dark+", // the theme
        \t"files.associations": {"*.jsonc": "jsonc"},
        \t"cSpell.words": ["caf\\u00e9", "na\\u00efve"],
        }

        """

    /// A tsconfig.json as `tsc --init` writes it: two spaces, comments, trailing commas.
    static let tsconfig = """
        {
          "compilerOptions": {
            /* Language and Environment */
            "target": "es2016", /* Set the JavaScript language version for emitted JavaScript. */
            "lib": ["dom", "es2017"],
            "strict": true,
            // "noEmit": true,
            "outDir": "./dist",
          },
          "include": ["src/**/*"],
          "exclude": ["node_modules",],
        }

        """

    /// Written by a Windows tool: a BOM, CRLF, four spaces, escapes, number spellings.
    static let windows =
        "\u{FEFF}{\r\n    \"name\": \"Caf\\u00e9 \\u2014 Bar\",\r\n    \"ratio\": 1.50,\r\n"
        + "    \"big\": 12345678901234567890,\r\n    \"list\": [1, 2, 3],\r\n    \"nested\": {\r\n"
        + "        \"deep\": {\r\n            \"x\": 1e3\r\n        }\r\n    }\r\n}\r\n"

    // MARK: - Helpers

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func address(_ file: String, _ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "files", container: file, key: key)
    }

    /// `original` with the one occurrence of `old` replaced by `new`; the test fails if `old`
    /// is not exactly once in the original.
    func splice(_ original: String, _ old: String, _ new: String) -> [UInt8] {
        let source = Array(original.utf8)
        let needle = Array(old.utf8)
        var found: [Int] = []
        if needle.count <= source.count {
            for start in 0...(source.count - needle.count)
            where source[start..<(start + needle.count)].elementsEqual(needle) {
                found.append(start)
            }
        }
        #expect(found.count == 1, "the snippet \(old.debugDescription) occurs \(found.count) times")
        guard let start = found.first else { return source }
        return Array(source[..<start]) + Array(new.utf8) + Array(source[(start + needle.count)...])
    }

    /// Runs `edit` on a fresh copy of `original` and checks the file is `expected` exactly.
    func check(
        _ name: String, _ original: String, expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
        _ edit: () throws -> Void
    ) throws {
        try write(name, original)
        try edit()
        let actual = try bytes(name)
        #expect(
            actual == expected,
            "got:\n\(String(decoding: actual, as: UTF8.self))\nexpected:\n\(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    // MARK: - VS Code settings (tabs, comments, trailing comma)

    @Test func settingsFileReadsWithCommentsAndTrailingCommas() throws {
        try write("settings.json", Self.settings)
        #expect(try hub.get(address("settings.json", "editor.fontSize")).value == 14)
        #expect(try hub.get(address("settings.json", "cSpell.words")).value == ["café", "naïve"])
        #expect(try hub.containers(scanner: "files").first?.problem == nil)
    }

    @Test func settingsSetScalar() throws {
        let expected = splice(Self.settings, "\"editor.fontSize\": 14", "\"editor.fontSize\": 16")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(address("settings.json", "editor.fontSize"), to: 16)
        }
    }

    @Test func settingsSetObjectInPlaceOfAString() throws {
        let expected = splice(
            Self.settings, "\"Default Dark+\", // the theme",
            "{\n\t\t\"dark\": \"Default Dark+\",\n\t\t\"light\": \"Quiet Light\"\n\t}, // the theme")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(
                address("settings.json", "workbench.colorTheme"), to: ["light": "Quiet Light", "dark": "Default Dark+"])
        }
    }

    @Test func settingsSetObjectWithOneMoreMemberKeepsItInline() throws {
        let expected = splice(
            Self.settings, "{\"*.jsonc\": \"jsonc\"}", "{\"*.jsonc\": \"jsonc\", \"*.md\": \"markdown\"}")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(address("settings.json", "files.associations"), to: ["*.jsonc": "jsonc", "*.md": "markdown"])
        }
    }

    @Test func settingsPointerEditDeep() throws {
        let expected = splice(Self.settings, "\"**/node_modules\": true", "\"**/node_modules\": false")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(
                address("settings.json", "files.exclude"), pointer: JSONPointer(parsing: "/**~1node_modules"),
                to: false)
        }
    }

    @Test func settingsAddMemberAfterTrailingComma() throws {
        let last = "\"cSpell.words\": [\"caf\\u00e9\", \"na\\u00efve\"],"
        let expected = splice(Self.settings, last, last + "\n\t\"editor.tabSize\": 4,")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(address("settings.json", "editor.tabSize"), to: 4)
        }
    }

    @Test func settingsAddNestedMemberOnItsOwnLine() throws {
        let expected = splice(
            Self.settings, "\t\t\"**/node_modules\": true\n", "\t\t\"**/node_modules\": true,\n\t\t\"**/dist\": true\n")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(address("settings.json", "files.exclude"), pointer: JSONPointer(parsing: "/**~1dist"), to: true)
        }
    }

    @Test func settingsDeleteMemberKeepsTheCommentAbove() throws {
        let expected = splice(Self.settings, "\t\"editor.fontSize\": 14,\n", "")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.delete(address("settings.json", "editor.fontSize"))
        }
    }

    @Test func settingsDeleteMemberWithTrailingComment() throws {
        let expected = splice(Self.settings, "\t\"workbench.colorTheme\": \"Default Dark+\", // the theme\n", "")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.delete(address("settings.json", "workbench.colorTheme"))
        }
    }

    @Test func settingsDeleteLastMemberKeepsTheTrailingCommaStyle() throws {
        let expected = splice(Self.settings, "\t\"cSpell.words\": [\"caf\\u00e9\", \"na\\u00efve\"],\n", "")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.delete(address("settings.json", "cSpell.words"))
        }
    }

    @Test func settingsInlineArrayElementEditAndAppend() throws {
        let expected = splice(Self.settings, "[80, 120]", "[80, 100, 120]")
        try check("settings.json", Self.settings, expected: expected) {
            try hub.set(address("settings.json", "editor.rulers"), to: [80, 100, 120])
        }
        let appended = splice(Self.settings, "\"na\\u00efve\"]", "\"na\\u00efve\", \"r\\u00e9sum\\u00e9\"]")
        try check("settings.json", Self.settings, expected: appended) {
            try hub.set(address("settings.json", "cSpell.words"), pointer: JSONPointer(parsing: "/-"), to: "résumé")
        }
    }

    // MARK: - tsconfig (two spaces, block comments, trailing commas)

    @Test func tsconfigPointerEditKeepsComments() throws {
        let expected = splice(Self.tsconfig, "\"./dist\"", "\"./build\"")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.set(
                address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/outDir"), to: "./build")
        }
    }

    @Test func tsconfigAddMemberInNestedObject() throws {
        let expected = splice(
            Self.tsconfig, "\"outDir\": \"./dist\",\n", "\"outDir\": \"./dist\",\n    \"sourceMap\": true,\n")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.set(
                address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/sourceMap"), to: true)
        }
    }

    @Test func tsconfigDeleteMemberWithTheCommentOnItsLineKeepsTheSectionHeader() throws {
        let expected = splice(
            Self.tsconfig,
            "    \"target\": \"es2016\", /* Set the JavaScript language version for emitted JavaScript. */\n", "")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.delete(
                address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/target"))
        }
    }

    /// `tsc --init` writes the options it leaves off as comments just above the ones it sets:
    /// deleting `outDir` must leave the commented-out `noEmit` where it was.
    @Test func tsconfigDeleteMemberKeepsSettingsCommentedOutAbove() throws {
        let expected = splice(Self.tsconfig, "    \"outDir\": \"./dist\",\n", "")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.delete(
                address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/outDir"))
        }
    }

    @Test func tsconfigDeleteLastMemberAndElement() throws {
        let expected = splice(Self.tsconfig, "  \"exclude\": [\"node_modules\",],\n", "")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.delete(address("tsconfig.json", "exclude"))
        }
        let element = splice(Self.tsconfig, "[\"dom\", \"es2017\"]", "[\"dom\"]")
        try check("tsconfig.json", Self.tsconfig, expected: element) {
            try hub.delete(address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/lib/1"))
        }
        let first = splice(Self.tsconfig, "[\"dom\", \"es2017\"]", "[\"es2017\"]")
        try check("tsconfig.json", Self.tsconfig, expected: first) {
            try hub.delete(address("tsconfig.json", "compilerOptions"), pointer: JSONPointer(parsing: "/lib/0"))
        }
    }

    @Test func tsconfigAppendToArrayWithTrailingComma() throws {
        let expected = splice(Self.tsconfig, "[\"node_modules\",]", "[\"node_modules\", \"dist\",]")
        try check("tsconfig.json", Self.tsconfig, expected: expected) {
            try hub.set(address("tsconfig.json", "exclude"), pointer: JSONPointer(parsing: "/-"), to: "dist")
        }
    }

    // MARK: - BOM, CRLF, four spaces, escapes

    @Test func windowsFileKeepsBOMLineEndingsAndEscapes() throws {
        try write("win.json", Self.windows)
        #expect(try hub.get(address("win.json", "name")).value == "Café — Bar")
        let deep = splice(Self.windows, "\"x\": 1e3", "\"x\": 2.5")
        try check("win.json", Self.windows, expected: deep) {
            try hub.set(address("win.json", "nested"), pointer: JSONPointer(parsing: "/deep/x"), to: 2.5)
        }
        let added = splice(
            Self.windows, "        }\r\n    }\r\n}",
            "        }\r\n    },\r\n    \"caf\\u00e9\": {\r\n        \"na\\u00efve\": [\r\n            true\r\n        ]\r\n    }\r\n}"
        )
        try check("win.json", Self.windows, expected: added) {
            try hub.set(address("win.json", "café"), to: ["naïve": [true]])
        }
        let deleted = splice(Self.windows, "    \"list\": [1, 2, 3],\r\n", "")
        try check("win.json", Self.windows, expected: deleted) {
            try hub.delete(address("win.json", "list"))
        }
        let lastDeleted = splice(
            Self.windows,
            ",\r\n    \"nested\": {\r\n        \"deep\": {\r\n            \"x\": 1e3\r\n        }\r\n    }\r\n",
            "\r\n")
        try check("win.json", Self.windows, expected: lastDeleted) {
            try hub.delete(address("win.json", "nested"))
        }
    }

    // MARK: - Other layouts

    @Test func emptyObjectsOpenSensibly() throws {
        let empty = "{\n  \"a\": {},\n  \"b\": 1\n}\n"
        let expected = splice(empty, "{},", "{\n    \"x\": 1\n  },")
        try check("empty.json", empty, expected: expected) {
            try hub.set(address("empty.json", "a"), pointer: JSONPointer(parsing: "/x"), to: 1)
        }
        try check("root.json", "{}\n", expected: Array("{\n  \"k\": \"v\"\n}\n".utf8)) {
            try hub.set(address("root.json", "k"), to: "v")
        }
        try check("one.json", "{\"only\": 1}", expected: Array("{}".utf8)) {
            try hub.delete(address("one.json", "only"))
        }
        try check(
            "list.jsonc", "{\"tags\": [], \"n\": 1}", expected: Array("{\"tags\": [\"a\", \"b\"], \"n\": 1}".utf8)
        ) {
            try hub.set(address("list.jsonc", "tags"), to: ["a", "b"])
        }
        try check("tabs.json", "{\n\t\"a\": 1\n}", expected: Array("{\n\t\"a\": 1,\n\t\"b\": [\n\t\t1\n\t]\n}".utf8)) {
            try hub.set(address("tabs.json", "b"), to: [1])
        }
    }

    @Test func newTextFollowsTheFilesEscapes() throws {
        // As PHP's json_encode writes: escaped slashes and non-ASCII.
        let php = "{\"homepage\":\"https:\\/\\/example.org\\/\",\"name\":\"Caf\\u00e9\"}"
        let expected = splice(
            php, "\"Caf\\u00e9\"}", "\"Caf\\u00e9\",\"path\":\"src\\/na\\u00efve\\/\"}")
        try check("php.json", php, expected: expected) {
            try hub.set(address("php.json", "path"), to: "src/naïve/")
        }
    }

    @Test func errorColumnsDoNotCountTheByteOrderMark() throws {
        try write("bom.json", "\u{FEFF}{\"a\" 1}")
        let problem = try hub.containers(scanner: "files").first { $0.name == "bom.json" }?.problem ?? ""
        #expect(problem.contains("line 1, column 6: expected ':'"), "\(problem)")
    }

    @Test func severalMegabyteFileChangesOnlyTheEditedBytes() throws {
        var text = "{\n  \"version\": 1,\n  \"items\": [\n"
        let count = 40_000
        for index in 0..<count {
            text +=
                "    {\"id\": \(index), \"name\": \"item \\u00e9 \(index)\", \"score\": \(index).50, \"tags\": [\"a\", \"b\"]}"
            text += index == count - 1 ? "\n" : ",\n"
        }
        text += "  ],\n  \"last\": true\n}\n"
        #expect(text.utf8.count > 3_000_000)
        let version = splice(text, "\"version\": 1,", "\"version\": 2,")
        try check("big.json", text, expected: version) {
            try hub.set(address("big.json", "version"), to: 2)
        }
        let deep = splice(text, "\"item \\u00e9 31337\"", "\"renamed\"")
        try check("big.json", text, expected: deep) {
            try hub.set(address("big.json", "items"), pointer: JSONPointer(parsing: "/31337/name"), to: "renamed")
        }
    }

    // MARK: - Invalid files

    @Test func invalidJSONCIsListedWithWhatIsWrongAndNeverWritten() throws {
        let cases: [(String, String)] = [
            ("{\n  \"a\": 1 /* open\n}\n", "line 2, column 10: unterminated comment"),
            ("{\n  \"a\": 1\n  \"b\": 2\n}\n", "line 3, column 3: a comma must separate members"),
            ("{\n  \"a\": [1 2]\n}\n", "line 2, column 11: a comma must separate elements"),
            ("{\n  \"a\": 1,,\n}\n", "two commas in a row"),
            ("{\n  \"a\": 1\n", "the object opened here is never closed"),
            ("{ \"a\": 'x' }", "double quotes"),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let name = "bad\(index).json"
            try write(name, text)
            let problem = try hub.containers(scanner: "files").first { $0.name == name }?.problem ?? ""
            #expect(problem.contains(message), "\(name): \(problem)")
            #expect(throws: JarvisError.self) { try hub.set(self.address(name, "a"), to: 5) }
            #expect(try bytes(name) == Array(text.utf8))
        }
    }
}
