import Foundation
import Testing

/// Config files shaped like the public ones developers keep (VS Code workspace settings, a
/// composer.json, a `.jsonc` file), edited through the real `jarvis-agent --files` and
/// `jarvis`: each edit changes only the bytes of what it touches. The fixtures are written
/// for these tests after the layout of such files, not copied from any project.
@Suite(.serialized) struct JSONCEndToEndTests {
    let sandbox: Sandbox
    let files: URL

    /// VS Code workspace settings: four spaces, a comment before the object, comments on
    /// their own lines and after members, blank lines between groups, an object holding only
    /// a comment, an inline array.
    static let settings = """
        // Place your settings in this file to overwrite default and user settings.
        {
            // Files and folders to hide in the explorer
            "files.exclude": {
                "out": false, // set this to true to hide the "out" folder
                "**/node_modules": true
            },
            "search.exclude": {
                // add patterns here
            },

            // The line length guides
            "editor.rulers": [80, 100],
            "editor.formatOnSave": true
        }

        """

    /// A composer.json: four spaces, escaped backslashes in keys, an empty object last.
    static let composer = """
        {
            "name": "example/demo",
            "description": "A demo package",
            "type": "library",
            "license": "MIT",
            "authors": [
                {
                    "name": "Ada Lovelace",
                    "role": "Developer"
                }
            ],
            "autoload": {
                "psr-4": {
                    "Example\\\\Demo\\\\": "src/"
                }
            },
            "require": {}
        }

        """

    /// A `.jsonc` file with tabs, a block comment and a trailing comma.
    static let jsonc = "{\n\t/* editor */\n\t\"editor.fontSize\": 14,\n\t\"editor.tabSize\": 4,\n}\n"

    init() throws {
        sandbox = try Sandbox()
        files = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: files.appendingPathComponent("vscode"), withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: files.appendingPathComponent(name))
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: files.appendingPathComponent(name)))
    }

    /// `original` with its one occurrence of `old` replaced by `new`.
    func splice(_ original: String, _ old: String, _ new: String) -> [UInt8] {
        let parts = original.components(separatedBy: old)
        #expect(parts.count == 2, "\(old.debugDescription) occurs \(parts.count - 1) times")
        return Array(parts.joined(separator: new).utf8)
    }

    /// Runs `jarvis` with `arguments` on a fresh copy of `original` and checks the result.
    func check(
        _ name: String, _ original: String, _ arguments: [String], expected: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try write(name, original)
        let result = try sandbox.run(Binaries.url("jarvis"), arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        let actual = try bytes(name)
        #expect(
            actual == expected,
            "\(arguments) gave:\n\(String(decoding: actual, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    @Test func editsChangeOnlyTheBytesTheyTouch() throws {
        try write("vscode/settings.json", Self.settings)
        try write("composer.json", Self.composer)
        try write("editor.jsonc", Self.jsonc)
        try sandbox.startAgent(["--files", files.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        for name in ["files:vscode/settings.json", "files:composer.json", "files:editor.jsonc"] {
            #expect(listing.stdout.contains(name), "\(name) is not listed: \(listing.stdout)")
        }
        #expect(!listing.stdout.contains("not valid"), "\(listing.stdout)")
        #expect(try sandbox.jarvis("get", "files:composer.json", "/autoload/psr-4/Example\\Demo\\").stdout == "src/\n")

        let settings = "vscode/settings.json"
        try check(
            settings, Self.settings, ["set", "files:" + settings, "/files.exclude/out", "true", "--bool"],
            expected: splice(Self.settings, "\"out\": false,", "\"out\": true,"))
        try check(
            settings, Self.settings, ["set", "files:" + settings, "/files.exclude/**~1.DS_Store", "true", "--bool"],
            expected: splice(
                Self.settings, "\"**/node_modules\": true\n",
                "\"**/node_modules\": true,\n        \"**/.DS_Store\": true\n"))
        try check(
            settings, Self.settings, ["set", "files:" + settings, "/search.exclude/**~1dist", "true", "--bool"],
            expected: splice(
                Self.settings, "\"search.exclude\": {\n", "\"search.exclude\": {\n        \"**/dist\": true\n"))
        try check(
            settings, Self.settings, ["set", "files:" + settings, "editor.tabSize", "4", "--int"],
            expected: splice(
                Self.settings, "\"editor.formatOnSave\": true\n",
                "\"editor.formatOnSave\": true,\n    \"editor.tabSize\": 4\n"))
        try check(
            settings, Self.settings, ["rm", "files:" + settings, "editor.rulers"],
            expected: splice(Self.settings, "    \"editor.rulers\": [80, 100],\n", ""))
        try check(
            settings, Self.settings, ["rm", "files:" + settings, "editor.formatOnSave"],
            expected: splice(
                Self.settings, "\"editor.rulers\": [80, 100],\n    \"editor.formatOnSave\": true\n",
                "\"editor.rulers\": [80, 100]\n"))
        try check(
            settings, Self.settings, ["set", "files:" + settings, "/editor.rulers/-", "120", "--int"],
            expected: splice(Self.settings, "[80, 100]", "[80, 100, 120]"))

        try check(
            "composer.json", Self.composer, ["set", "files:composer.json", "/require/php", "^8.2"],
            expected: splice(Self.composer, "\"require\": {}", "\"require\": {\n        \"php\": \"^8.2\"\n    }"))
        try check(
            "composer.json", Self.composer,
            ["set", "files:composer.json", "/autoload/psr-4/Example\\Demo\\Tests\\", "tests/"],
            expected: splice(
                Self.composer, "\"src/\"\n", "\"src/\",\n            \"Example\\\\Demo\\\\Tests\\\\\": \"tests/\"\n"))
        try check(
            "composer.json", Self.composer, ["rm", "files:composer.json", "/authors/0/role"],
            expected: splice(
                Self.composer, "\"Ada Lovelace\",\n            \"role\": \"Developer\"\n", "\"Ada Lovelace\"\n"))

        try check(
            "editor.jsonc", Self.jsonc, ["set", "files:editor.jsonc", "editor.fontSize", "15", "--int"],
            expected: splice(Self.jsonc, "14", "15"))
        try check(
            "editor.jsonc", Self.jsonc, ["rm", "files:editor.jsonc", "editor.tabSize"],
            expected: splice(Self.jsonc, "\t\"editor.tabSize\": 4,\n", ""))
    }

    /// VS Code setting names run past the key column (48 characters is common): `ls` still
    /// keeps one space between the name and its type.
    @Test func aKeyWiderThanItsColumnStaysApartFromItsType() throws {
        let name = "typescript.tsserver.experimental.useVsCodeWatcher"
        try write("settings.json", "{\n\t\"\(name)\": true\n}\n")
        try sandbox.startAgent(["--files", files.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("\(name) boolean"), "\(listing.stdout)")
    }

    @Test func anInvalidFileIsListedWithItsProblemAndNeverWritten() throws {
        let broken = "{\n\t\"a\": 1 /* not closed\n}\n"
        try write("broken.jsonc", broken)
        try sandbox.startAgent(["--files", files.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.stdout.contains("files:broken.jsonc: not valid JSON: line 2, column 9: unterminated comment"))
        #expect(try sandbox.jarvis("set", "files:broken.jsonc", "a", "2", "--int").status != 0)
        #expect(try bytes("broken.jsonc") == Array(broken.utf8))
    }
}
