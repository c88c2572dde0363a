import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

/// What a newcomer meets in the first hour with the demo: unset keys, plain JSON, hints that
/// name the CLI's own flags, a catalog that covers the demo, and secrets the demo lets reveal.
@Suite(.serialized) struct DailyUseEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
        try sandbox.startAgent(["--demo"])
    }

    @Test func aCataloguedKeyWithNothingStoredIsUnsetWithItsDefault() throws {
        let get = try sandbox.jarvis("get", "com.example.demo.prefs", "theme")
        #expect(get.status == 0)
        #expect(get.stdout == "system\n", "\(get.stdout)")
        #expect(get.stderr.contains("unset"))
        let ls = try sandbox.jarvis("ls", "com.example.demo.prefs")
        let line = ls.stdout.split(separator: "\n").first { $0.contains("theme") } ?? ""
        #expect(line.contains("unset (default: system)"), "\(ls.stdout)")
        // Export: an unset key is neither a value nor a masked secret.
        let export = try sandbox.jarvis("export", "com.example.demo.prefs")
        #expect(!export.stderr.contains("masked"), "\(export.stderr)")
        let all = try sandbox.jarvis("export")
        #expect(all.stderr.contains("left out 3 masked secret(s)"), "\(all.stderr)")
    }

    @Test func lineOutputIsPlainJSONAndTheWireEncodingStaysInJSONOutput() throws {
        let server = try sandbox.jarvis("get", "files:app.json", "server")
        #expect(server.stdout.contains(#""write": 5.0"#), "\(server.stdout)")
        #expect(!server.stdout.contains("$real"))
        let profile = try sandbox.jarvis("get", "com.example.demo.prefs", "profile")
        // Plain JSON indeed: a date inside is an ISO 8601 string, and the whole parses.
        #expect(profile.stdout.contains(#""created": "2023-11-14T22:13:20Z""#), "\(profile.stdout)")
        #expect((try? JSONParser.parse(Array(profile.stdout.utf8))) != nil, "\(profile.stdout)")
        #expect(!profile.stdout.contains("$date"))
        let json = try sandbox.jarvis("get", "files:app.json", "server", "--json")
        #expect(json.stdout.contains("$real"))
    }

    @Test func hintsNameTheCommandLinesOwnFlagsAndPlaces() throws {
        let wrongText = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_count", "abc", "--int")
        #expect(wrongText.status == 64, "\(wrongText.stderr)")
        let wrongType = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_count", "5", "--string")
        #expect(wrongType.status == 1)
        #expect(wrongType.stderr.contains("use --int"), "\(wrongType.stderr)")
        #expect(!wrongType.stderr.contains("send type"))
        let nested = try sandbox.jarvis("get", "files:app.json", "/server/portt")
        #expect(nested.stderr.contains("at /server"), "\(nested.stderr)")
        #expect(!nested.stderr.contains("the top"))
    }

    @Test func typosGetTheNearestCommandOptionContainerOrKey() throws {
        let command = try sandbox.jarvis("lst")
        #expect(command.status == 64 && command.stderr.contains("Did you mean 'ls'?"), "\(command.stderr)")
        let option = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_count", "5", "--integer")
        #expect(option.status == 64 && option.stderr.contains("Did you mean '--int'?"), "\(option.stderr)")
        let key = try sandbox.jarvis("get", "com.example.demo.prefs", "launch_cout")
        #expect(key.status == 1 && key.stderr.contains("Did you mean 'launch_count'?"), "\(key.stderr)")
        let container = try sandbox.jarvis("ls", "com.example.demo.pref")
        #expect(container.status == 1, "\(container.stdout)")
        #expect(container.stderr.contains("Did you mean 'com.example.demo.prefs'?"), "\(container.stderr)")
        // In a container the catalog covers, an undeclared key needs --new; nothing is created without it.
        let typo = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_cout", "5", "--int")
        #expect(typo.status == 64 && typo.stderr.contains("Did you mean 'launch_count'?"), "\(typo.stderr)")
        #expect(try sandbox.jarvis("get", "com.example.demo.prefs", "launch_cout").status == 1)
        let meant = try sandbox.jarvis("set", "com.example.demo.prefs", "launch_cout", "5", "--int", "--new")
        #expect(meant.status == 0 && meant.stderr.contains("created the new key"), "\(meant.stderr)")
        // Elsewhere a new key is created with a note.
        let elsewhere = try sandbox.jarvis("set", "files:app.json", "fresh", "1", "--int")
        #expect(elsewhere.status == 0 || elsewhere.stderr.contains("declares"), "\(elsewhere.stderr)")
    }

    @Test func theDemosCatalogCoversEveryKeyItStores() throws {
        let undeclared = try sandbox.jarvis("ls", "--undeclared", "--json")
        let items = try JSONParser.parse(undeclared.stdout)["items"]?.arrayValue ?? [.null]
        #expect(items.isEmpty, "\(undeclared.stdout)")
    }

    @Test func jarvisDemoLetsTheUserRevealTheDemosSecrets() throws {
        // `jarvis demo` serves through its hidden `demo-agent` command.
        let demo = Process()
        demo.executableURL = try Binaries.url("jarvis")
        demo.arguments = ["demo-agent"]
        var environment = sandbox.environment
        environment["JARVIS_RUNTIME_DIR"] = sandbox.root.appendingPathComponent("demo-run").path
        demo.environment = environment
        demo.standardOutput = FileHandle.nullDevice
        demo.standardError = FileHandle.nullDevice
        try FileManager.default.createDirectory(
            at: sandbox.root.appendingPathComponent("demo-run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try demo.run()
        defer {
            // SIGKILL: a child started from a test's worker thread may have SIGTERM blocked.
            kill(demo.processIdentifier, SIGKILL)
            demo.waitUntilExit()
        }
        sandbox.environmentOverrides["JARVIS_RUNTIME_DIR"] = sandbox.root.appendingPathComponent("demo-run").path
        var revealed: CommandResult?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let attempt = try sandbox.jarvis("get", "secrets", "db_password", "--reveal")
            if attempt.status == 0 {
                revealed = attempt
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(revealed?.stdout == "correct-horse-battery-staple\n", "\(String(describing: revealed))")
    }
}

/// `--files` on a real project folder: config in dot-folders is served, dependencies and build
/// products are not, `--exclude` leaves out more, and a file left out is named as such.
@Suite struct ServedProjectFolderEndToEndTests {
    @Test func dotFoldersAreServedAndDependencyAndBuildFoldersAreNot() throws {
        let sandbox = try Sandbox()
        let project = sandbox.root.appendingPathComponent("project")
        let files = [
            ".vscode/settings.json": #"{"editor.tabSize": 2}"#,
            ".devcontainer/devcontainer.json": #"{"name": "dev"}"#,
            "tsconfig.json": #"{"compilerOptions": {}}"#,
            "node_modules/left-pad/package.json": #"{"name": "left-pad"}"#,
            ".git/info.json": #"{"x": 1}"#,
            "build/out.json": #"{"x": 1}"#,
            "secrets/local.json": #"{"token": "t"}"#,
        ]
        for (path, text) in files {
            let url = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try sandbox.startAgent(["--files", project.path, "--exclude", "secrets"])
        let listing = try sandbox.jarvis("ls", "--scanner", "files")
        #expect(listing.stdout.contains(".vscode/settings.json"), "\(listing.stdout)")
        #expect(listing.stdout.contains(".devcontainer/devcontainer.json"))
        #expect(listing.stdout.contains("tsconfig.json"))
        for hidden in ["node_modules", ".git/", "build/out.json", "secrets/local.json"] {
            #expect(!listing.stdout.contains(hidden), "\(hidden) was served: \(listing.stdout)")
        }
        let set = try sandbox.jarvis("set", "files:.vscode/settings.json", "editor.tabSize", "4", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        let dependency = try sandbox.jarvis("get", "files:node_modules/left-pad/package.json", "name")
        #expect(dependency.status == 1)
        #expect(dependency.stderr.contains("not served"), "\(dependency.stderr)")
        #expect(dependency.stderr.contains("node_modules"))
        let excluded = try sandbox.jarvis("get", "files:secrets/local.json", "token")
        #expect(excluded.stderr.contains("not served") && excluded.stderr.contains("exclude"), "\(excluded.stderr)")
    }
}

/// The real `jarvis` in a terminal of 80 columns fits its lines to it; piped, it does not cut.
@Suite(
    .serialized,
    .enabled(if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
struct TerminalWidthEndToEndTests {
    @Test func lsHistoryAndAgentsFitEightyColumnsAndPipedOutputStaysWhole() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        let long = String(repeating: "word ", count: 40)
        try sandbox.writeSuite("com.example.wide", in: folder, ["a_rather_long_key_name": long, "short": "x"])
        try sandbox.startAgent(["--defaults-dir", folder.path])
        #expect(try sandbox.jarvis("set", "com.example.wide", "short", "y").status == 0)
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' ls com.example.wide; '\(jarvis)' history --audit; '\(jarvis)' agents; echo WIDTH-DONE; sleep 60",
            environment: sandbox.environment, folder: sandbox.root, columns: 80, rows: 40)
        let screen = try tmux.wait(for: "WIDTH-DONE")
        let lines = screen.split(separator: "\n")
        #expect(lines.contains { $0.contains("a_rather_long_key_name") }, "\(screen)")
        #expect(lines.contains { $0.contains("…") }, "a long value was not shortened:\n\(screen)")
        // tmux wraps a longer line onto the next row, so a wrapped line shows as a row starting mid-word.
        #expect(!lines.contains { $0.hasPrefix("word") }, "a line wrapped:\n\(screen)")
        let history = lines.first { $0.contains("set") && $0.contains("short") } ?? ""
        #expect(history.range(of: #"T\d\d:\d\d:\d\d\.\d{3}Z"#, options: .regularExpression) != nil, "\(history)")
        // Piped, the same listing keeps its whole preview.
        let piped = try sandbox.jarvis("ls", "com.example.wide")
        let line = piped.stdout.split(separator: "\n").first { $0.contains("a_rather_long_key_name") } ?? ""
        #expect(line.count > 80, "\(line)")
    }

    /// In 80 columns `history` keeps the time, the action, the key and who made the change
    /// (the revisions and the connection's detail give way), and a problem is one cut line.
    @Test func historyKeepsWhoAndAProblemIsOneLineInEightyColumns() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        let suite = "com.example.a-rather-long-suite-name.preferences"
        try sandbox.writeSuite(suite, in: folder, ["launch_count": 1])
        let files = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data("{\"a\": 1 \"b\": 2, \"and a long tail to make the message long\": true}".utf8)
            .write(to: files.appendingPathComponent("broken.json"))
        try sandbox.startAgent(["--defaults-dir", folder.path, "--files", files.path])
        #expect(try sandbox.jarvis("set", suite, "launch_count", "5", "--int").status == 0)
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' history --audit; '\(jarvis)' ls files:broken.json; echo WIDTH-DONE; sleep 60",
            environment: sandbox.environment, folder: sandbox.root, columns: 80, rows: 40)
        let screen = try tmux.wait(for: "WIDTH-DONE")
        let rows = screen.split(separator: "\n")
        let history = rows.first { $0.contains("launch_count") } ?? ""
        #expect(history.contains("set") && history.contains("by jarvis-cli"), "\(screen)")
        #expect(history.range(of: #"\d\d:\d\d:\d\d"#, options: .regularExpression) != nil, "\(history)")
        #expect(history.contains("preferences"), "the container's end stays: \(history)")
        let problem = rows.first { $0.contains("files:broken.json") } ?? ""
        #expect(problem.count <= 80 && problem.hasSuffix("…"), "\(screen)")
        #expect(!rows.contains { $0.hasPrefix("word") || $0.hasPrefix("long") }, "a line wrapped:\n\(screen)")
        // Piped, the problem stays whole.
        let piped = try sandbox.jarvis("ls", "files:broken.json")
        #expect(piped.stdout.split(separator: "\n").contains { $0.contains("broken.json") && $0.count > 80 }, "\(piped.stdout)")
    }
}
