import Foundation
import JarvisTestSupport
import JarvisCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--token-file` keeps the TCP token out of `ps` for `jarvis` and `jarvis mcp`, and is trusted
/// only when it is the user's own private file, as the runtime folder is.
@Suite(.serialized) struct TokenFileEndToEndTests {
    let sandbox: Sandbox
    let agent: AgentProcess
    let tcp: String
    let token: String
    let file: URL

    init() throws {
        sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada"])
        agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--listen", "0"])
        tcp = try agent.tcp().description
        token = try #require(agent.record.token)
        file = sandbox.root.appendingPathComponent("token")
        try Data((token + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
        // Clients look in another, empty runtime folder, so the discovery file cannot lend them
        // the token: it must come from the file.
        let elsewhere = sandbox.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(
            at: elsewhere, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        sandbox.environmentOverrides["JARVIS_RUNTIME_DIR"] = elsewhere.path
        sandbox.environmentOverrides["JARVIS_TOKEN"] = .some(nil)
    }

    @Test func theCLIReadsTheTokenFromAPrivateFile() throws {
        let get = try sandbox.jarvis("--agent", tcp, "--token-file", file.path, "get", "com.example.app", "user_name")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "Ada\n")
        #expect(!get.stderr.contains("warning"), "\(get.stderr)")
        // Without it nothing else supplies the token here.
        let none = try sandbox.jarvis("--agent", tcp, "get", "com.example.app", "user_name")
        #expect(none.status == 1)
        // The token on the command line still works, with a warning that others can see it.
        let typed = try sandbox.jarvis("--agent", tcp, "--token", token, "get", "com.example.app", "user_name")
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(typed.stderr.contains("--token is visible to every local user"), "\(typed.stderr)")
        let both = try sandbox.jarvis("--agent", tcp, "--token", token, "--token-file", file.path, "ls")
        #expect(both.status == 64)
    }

    @Test func aTokenFileOthersCouldReadOrPlantIsRefused() throws {
        chmod(file.path, 0o644)
        let loose = try sandbox.jarvis("--agent", tcp, "--token-file", file.path, "ls")
        #expect(loose.status == 1)
        #expect(loose.stderr.contains("has mode 0644"), "\(loose.stderr)")
        #expect(loose.stderr.contains("chmod 600 \(file.path)"), "\(loose.stderr)")
        chmod(file.path, 0o600)

        let link = sandbox.root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let linked = try sandbox.jarvis("--agent", tcp, "--token-file", link.path, "ls")
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("symbolic link"), "\(linked.stderr)")

        let missing = try sandbox.jarvis("--agent", tcp, "--token-file", file.path + ".none", "ls")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot be opened"), "\(missing.stderr)")

        if getuid() == 0 {
            // Root runs the client; the file belongs to another user.
            let foreign = sandbox.root.appendingPathComponent("foreign")
            try Data(token.utf8).write(to: foreign)
            chmod(foreign.path, 0o600)
            chown(foreign.path, 65534, 65534)
            let planted = try sandbox.jarvis("--agent", tcp, "--token-file", foreign.path, "ls")
            #expect(planted.status == 1)
            #expect(planted.stderr.contains("belongs to uid 65534"), "\(planted.stderr)")
        }

        // The standalone agent checks its own --token-file the same way.
        let shared = sandbox.root.appendingPathComponent("shared-token")
        try Data("lab-phone-7f3a9c1e5b2d4f60a8c7e1d2".utf8).write(to: shared)
        chmod(shared.path, 0o644)
        // Bounded: an agent that accepts the file starts serving and never ends by itself.
        let agent = try sandbox.run(
            try Binaries.url("jarvis-agent"), ["--demo", "--listen", "0", "--token-file", shared.path], limit: 30)
        #expect(agent.status == 1)
        #expect(agent.stderr.contains("has mode 0644"), "\(agent.stderr)")
    }

    @Test func jarvisMCPTakesTheTokenFromAFileAndKeepsItOutOfItsCommandLine() throws {
        let process = Process()
        process.executableURL = try Binaries.url("jarvis")
        process.arguments = ["mcp", "--agent", tcp, "--token-file", file.path]
        process.environment = sandbox.environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // What `ps` shows every local user.
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(process.processIdentifier)/cmdline"))
        #expect(!String(decoding: commandLine, as: UTF8.self).contains(token))
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_preference","arguments":{"container":"com.example.app","key":"user_name"}}}"#,
        ]
        let writer = input.fileHandleForWriting
        let bytes = Data((lines.joined(separator: "\n") + "\n").utf8)
        DispatchQueue.global().async {
            writer.writeQuietly(bytes)
            try? writer.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let answers = try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONParser.parse(String($0))
        }
        let call = try #require(answers.first { $0["id"]?.int64Value == 2 })
        #expect(call["result"]?["isError"] != .bool(true), "\(call)")
        #expect(String(describing: call).contains("Ada"), "\(call)")
    }
}
