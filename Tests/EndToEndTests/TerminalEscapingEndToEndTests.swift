import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// Text from an agent never reaches the terminal raw: a stored value, a key or a client name
/// holding escape sequences, CR, C1 characters or newlines is printed escaped by every
/// line-mode command, while `--json` output stays exactly as before.
@Suite(.serialized) struct TerminalEscapingEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    /// Sets the terminal's title, clears the screen, returns the carriage, and a C1 CSI.
    static let evilValue = "\u{1B}]0;title\u{07} \u{1B}[2J x\ry \u{9B}31m z"
    static let evilKey = "k\u{1B}[31m\u{7F}ey\r"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let document: JSONValue = .object([
            "evil": .string(Self.evilValue), Self.evilKey: .string("plain"),
            "nested": ["inner": .string(Self.evilValue)],
        ])
        try Data(JSONWriter.bytes(document)).write(to: folder.appendingPathComponent("app.json"))
    }

    /// Fails when `text` holds a character a terminal would act on (a newline only where
    /// `lines` allows it).
    private func expectClean(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }
        #expect(
            raw.isEmpty, "\(what) printed raw control characters: \(raw.map { String($0.value, radix: 16) })",
            sourceLocation: sourceLocation)
    }

    @Test func lineModeCommandsEscapeWhatTheAgentSends() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path, "--name", "evil\u{1B}[2Jagent"])
        let ls = try sandbox.jarvis("ls")
        #expect(ls.status == 0, "\(ls.stderr)")
        expectClean(ls.stdout, "ls")
        #expect(ls.stdout.contains(#"\x1B]0;title\x07 \x1B[2J x\ry \u{9B}31m z"#))
        #expect(ls.stdout.contains(#"k\x1B[31m\x7Fey\r"#))

        let get = try sandbox.jarvis("get", "files:app.json", "evil")
        #expect(get.status == 0)
        expectClean(get.stdout, "get")
        #expect(get.stdout == #"\x1B]0;title\x07 \x1B[2J x\ry \u{9B}31m z"# + "\n")
        let nested = try sandbox.jarvis("get", "files:app.json", "nested")
        expectClean(nested.stdout, "get of a dictionary")
        #expect(nested.stdout.contains("\n"), "the pretty JSON keeps its own lines")

        let json = try sandbox.jarvis("get", "files:app.json", "evil", "--json")
        let item = try JSONParser.parse(Array(json.stdout.utf8))
        #expect(item["value"]?.stringValue == Self.evilValue, "--json output carries the value unchanged")
        #expect(json.stdout.contains(#"\u001b]0;title\u0007"#))

        let set = try sandbox.jarvis("set", "files:app.json", "written", "\u{1B}[2J\u{9B}")
        #expect(set.status == 0, "\(set.stderr)")
        expectClean(set.stdout, "set")
        let removed = try sandbox.jarvis("rm", "files:app.json", Self.evilKey)
        #expect(removed.status == 0, "\(removed.stderr)")
        expectClean(removed.stdout, "rm")
        #expect(removed.stdout.contains(#"k\x1B[31m\x7Fey\r"#))

        let missing = try sandbox.jarvis("get", "files:app.json", "nope\u{1B}[2J\r")
        #expect(missing.status == 1)
        expectClean(missing.stderr, "an error message")
        #expect(missing.stderr.contains(#"nope\x1B[2J\r"#))

        let agents = try sandbox.jarvis("agents")
        expectClean(agents.stdout, "agents")
        #expect(agents.stdout.contains(#"evil\x1B[2Jagent"#))

        // A client whose name would forge a line of `jarvis history`.
        let forger = try JarvisClient(
            endpoint: agent.unix, clientName: "x\n2026-01-01T00:00:00Z  delete  files:app.json FORGED\r\u{9B}")
        try forger.set(PreferenceAddress(scanner: "files", container: "app.json", key: "forged"), to: .integer(1))
        forger.close()
        let history = try sandbox.jarvis("history", "--audit")
        #expect(history.status == 0)
        expectClean(history.stdout, "history")
        let lines = history.stdout.split(separator: "\n")
        #expect(lines.count == 3, "one line per record (set, rm, forged set): \(lines)")
        #expect(!lines.contains { $0.hasPrefix("2026-01-01") })
        // The agent keeps the name printable: each control character became U+FFFD.
        let kept = "x\u{FFFD}2026-01-01T00:00:00Z  delete  files:app.json FORGED\u{FFFD}\u{FFFD}"
        #expect(history.stdout.contains(kept), "\(history.stdout)")
        let historyJSON = try sandbox.jarvis("history", "--audit", "--json")
        let records = try JSONParser.parse(Array(historyJSON.stdout.utf8))["records"]?.arrayValue ?? []
        #expect(records.last?["client"]?.stringValue == kept)
    }

    @Test func watchEscapesChanges() throws {
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let process = Process()
        process.executableURL = try Binaries.url("jarvis")
        process.arguments = ["watch", "files:app.json"]
        process.environment = sandbox.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let client = try JarvisClient(endpoint: agent.unix, clientName: "writer")
        defer { client.close() }
        // Write until the watcher has printed a line: it may subscribe after the first write.
        let reader = output.fileHandleForReading
        let received = Locked(Data())
        reader.readabilityHandler = { handle in
            let chunk = handle.availableData
            received.withLock { $0.append(chunk) }
        }
        defer { reader.readabilityHandler = nil }
        let deadline = Date().addingTimeInterval(30)
        var round = 0
        while Date() < deadline, !received.withLock({ $0.contains(0x0A) }) {
            round += 1
            try client.set(
                PreferenceAddress(scanner: "files", container: "app.json", key: Self.evilKey),
                to: .string(Self.evilValue + String(round)))
            Thread.sleep(forTimeInterval: 0.3)
        }
        process.terminate()
        process.waitUntilExit()
        let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        #expect(text.contains(#"k\x1B[31m\x7Fey\r"#), "watch printed: \(text)")
        expectClean(text, "watch")
    }

    /// A key that reads `invoice` followed by `exe.png` backwards, and values holding isolates,
    /// zero-width characters and separators: shown as escapes by `ls` and `get`, never obeyed.
    @Test func bidiAndInvisibleCharactersAreShownNotObeyed() throws {
        let bidiFolder = sandbox.root.appendingPathComponent("bidi")
        try FileManager.default.createDirectory(at: bidiFolder, withIntermediateDirectories: true)
        let document: JSONValue = .object([
            "invoice\u{202E}gnp.exe": .string("a\u{2066}b\u{2069}c\u{200B}d\u{2028}e"),
            "nested": ["in\u{200F}ner": .string("x\u{FEFF}y\u{061C}z")],
        ])
        try Data(JSONWriter.bytes(document)).write(to: bidiFolder.appendingPathComponent("app.json"))
        _ = try AgentProcess(sandbox, ["--files", bidiFolder.path])
        let hidden: (Unicode.Scalar) -> Bool = { [0x202E, 0x2066, 0x2069, 0x200B, 0x2028, 0x200F, 0xFEFF, 0x061C].contains($0.value) }

        let ls = try sandbox.jarvis("ls")
        #expect(ls.status == 0, "\(ls.stderr)")
        #expect(!ls.stdout.unicodeScalars.contains(where: hidden), "\(ls.stdout)")
        #expect(ls.stdout.contains(#"invoice\u{202E}gnp.exe"#), "\(ls.stdout)")
        #expect(ls.stdout.contains(#"a\u{2066}b\u{2069}c\u{200B}d\u{2028}e"#), "\(ls.stdout)")

        let get = try sandbox.jarvis("get", "files:app.json", "invoice\u{202E}gnp.exe")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == #"a\u{2066}b\u{2069}c\u{200B}d\u{2028}e"# + "\n")
        let nested = try sandbox.jarvis("get", "files:app.json", "nested")
        #expect(nested.status == 0, "\(nested.stderr)")
        #expect(!nested.stdout.unicodeScalars.contains(where: hidden), "\(nested.stdout)")
        #expect(nested.stdout.contains(#"in\u{200F}ner"#) || nested.stdout.contains(#"in\u200fner"#), "\(nested.stdout)")

        // JSON output carries the real text (the encoder escapes only what JSON must).
        let json = try sandbox.jarvis("get", "files:app.json", "invoice\u{202E}gnp.exe", "--json")
        let item = try JSONParser.parse(Array(json.stdout.utf8))
        #expect(item["key"]?.stringValue == "invoice\u{202E}gnp.exe" || json.stdout.contains("gnp.exe"))
    }
}
