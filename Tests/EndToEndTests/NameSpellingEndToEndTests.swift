import Foundation
import Testing

/// Issue 27 item 1 over the socket, through the real `jarvis-agent` and `jarvis`: a name a
/// rule hides stays hidden whether the rule, the stored name or the name asked for is
/// spelt composed (NFC, `ñ`) or decomposed (NFD, `n` + U+0303), before and after listings.
@Suite(.serialized) struct NameSpellingEndToEndTests {
    enum Spelling: String, CaseIterable, Sendable {
        case nfc, nfd

        func callAsFunction(_ text: String) -> String {
            self == .nfc ? text.precomposedStringWithCanonicalMapping : text.decomposedStringWithCanonicalMapping
        }
    }

    /// Writes a file under exactly these bytes of name.
    static func write(_ folder: URL, _ name: String, _ data: Data) throws {
        let descriptor = open(folder.path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw HarnessError("cannot create \(name)") }
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    @Test(arguments: Spelling.allCases, Spelling.allCases) func hiddenNamesStayHiddenInEverySpelling(
        rule: Spelling, stored: Spelling
    ) throws {
        let sandbox = try Sandbox()
        let defaults = sandbox.root.appendingPathComponent("defaults")
        let files = sandbox.root.appendingPathComponent("files")
        let secrets = sandbox.root.appendingPathComponent("vault")
        for folder in [defaults, files, secrets] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let key = stored("contraseña_api")
        let plist = { (values: [String: String]) in
            try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        }
        try Self.write(defaults, "app.plist", try plist([key: "s3cret", "theme": "dark"]))
        try Self.write(defaults, stored("datos_contraseña") + ".plist", try plist(["theme": "s3cret"]))
        try Self.write(files, "cuentas.json", Data(#"{"\#(key)":"s3cret","theme":"dark"}"#.utf8))
        try Self.write(files, stored("señas.json"), Data(#"{"theme":"s3cret"}"#.utf8))
        try Self.write(secrets, key, Data("s3cret".utf8))
        try Self.write(secrets, "theme", Data("dark".utf8))
        try sandbox.startAgent([
            "--defaults-dir", defaults.path, "--files", files.path, "--secrets-dir", secrets.path, "--allow-reveal",
            "--hide-key", rule("contraseña*"), "--hide-container", rule("datos_contraseña*"),
            "--exclude", rule("señas*"),
        ])
        func asks(_ asked: Spelling) -> [[String]] {
            let key = asked("contraseña_api")
            return [
                ["get", "defaults:app", key, "--reveal"], ["get", "files:cuentas.json", key],
                ["get", "secrets:vault", key, "--reveal"], ["get", "defaults:" + asked("datos_contraseña"), "theme"],
                ["get", "files:" + asked("señas.json"), "theme"], ["ls", "defaults:" + asked("datos_contraseña")],
                ["ls", "files:" + asked("señas.json")], ["get", "--json", "defaults:app", key],
            ]
        }
        func leaks(_ commands: [[String]]) throws -> [String] {
            try commands.compactMap { command in
                let result = try sandbox.run(try Binaries.url("jarvis"), command)
                return result.stdout.contains("s3cret") || result.status == 0 ? "\(command): \(result.stdout)" : nil
            }
        }
        for asked in Spelling.allCases {
            #expect(try leaks(asks(asked)) == [], "before a listing, asked \(asked)")
        }
        let listing = try sandbox.jarvis("ls", "--json", "--reveal")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(!listing.stdout.contains("s3cret"), "\(listing.stdout)")
        #expect(listing.stdout.contains("dark"), "\(listing.stdout)")
        for asked in Spelling.allCases {
            #expect(try leaks(asks(asked)) == [], "after a listing, asked \(asked)")
            let key = asked("contraseña_api")
            for address in [
                ["defaults:app", key], ["files:cuentas.json", key], ["defaults:" + asked("datos_contraseña"), "theme"],
            ] {
                let set = try sandbox.jarvis("set", address[0], address[1], "stolen")
                #expect(set.status != 0, "set \(address) was accepted")
            }
        }
        // Nothing was written: every stored secret is as it was.
        #expect(try sandbox.readSuite(stored("datos_contraseña"), in: defaults)["theme"] as? String == "s3cret")
        #expect(try sandbox.readSuite("app", in: defaults)[key] as? String == "s3cret")
        #expect(
            try String(contentsOf: files.appendingPathComponent("cuentas.json"), encoding: .utf8).contains("s3cret"))
    }
}
