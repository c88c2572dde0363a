import Foundation
import JarvisTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `jarvis inspect --agents`: a key's detail shows its value on every agent named, one line
/// per agent, in a real terminal (tmux) against real agents; a stopped agent holds up nothing,
/// and an agent without the key is marked as differing from the agent browsed.
@Suite(
    .serialized,
    .enabled(if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
struct FleetInspectorEndToEndTests {
    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
    }

    @discardableResult
    func agent(_ name: String, port: Int?) throws -> AgentProcess {
        let folder = sandbox.root.appendingPathComponent("files-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = port.map { #"{"port": \#($0)}"# } ?? #"{"host": "x"}"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("app.json"))
        return try AgentProcess(sandbox, ["--files", folder.path, "--name", name])
    }

    @Test func aKeysDetailShowsItsValueOnEveryAgentNamed() throws {
        try agent("i-a", port: 1)
        try agent("i-b", port: 2)
        try agent("i-c", port: nil)
        let stopped = try agent("i-stuck", port: 3)
        try agent("other", port: 4)
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect --agents 'i-*' --agents-timeout 2; echo INSPECT-EXITED-$?; sleep 60",
            environment: sandbox.environment, folder: sandbox.root)
        try tmux.wait(for: "app.json")
        try tmux.keys("Enter")
        try tmux.wait(for: "port")
        try tmux.keys("Enter")
        let screen = try tmux.wait("every agent's line") { $0.contains("i-stuck") && !$0.contains("reading…") }
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(screen.contains("On the 4 agents named"), "\(screen)")
        #expect(lines.contains("i-a        1"), "\(screen)")
        #expect(lines.contains("i-b      ≠ 2"), "\(screen)")
        // A key missing on an agent differs from one present on the agent in view.
        #expect(lines.contains { $0.hasPrefix("i-c      ≠ [not found]") }, "\(screen)")
        #expect(lines.contains { $0.hasPrefix("i-stuck") && $0.contains("[no answer]") }, "\(screen)")
        #expect(!screen.contains("other"))
        try tmux.type("q")
        try tmux.wait(for: "(y/n)")
        try tmux.type("y")
        try tmux.wait(for: "INSPECT-EXITED-0")
    }
}
