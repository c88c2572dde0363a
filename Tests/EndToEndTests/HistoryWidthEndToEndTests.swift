import Foundation
import JarvisCore
import Testing

/// `jarvis history`, `undo` and `restore` on the real binaries use the columns they are given
/// (`COLUMNS`): a long key shows whole, and two long values show where they differ.
@Suite struct HistoryWidthEndToEndTests {
    @Test func aWideTerminalShowsKeysWholeAndTheChangedPart() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = "workout_2024-01-15_morning_run"
        func record(_ count: Int) -> String {
            let fields = (0..<10).map { "\"lap\($0)\": \"kept the same \($0)\"" }.joined(separator: ", ")
            return "{\(fields), \"count\": \(count), \"note\": \"unchanged tail\"}"
        }
        let text = JSONWriter.string(.object([key: .string(record(3))]))
        try Data(text.utf8).write(to: folder.appendingPathComponent("log.json"))
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let pid = String(agent.pid)
        let set = try sandbox.jarvis("--agent", pid, "set", "log.json", key, record(4))
        #expect(set.status == 0, "\(set.stderr)")

        sandbox.environmentOverrides["COLUMNS"] = "160"
        let wide = try sandbox.jarvis("--agent", pid, "history")
        let line = wide.stdout.split(separator: "\n").first { $0.contains("can undo") }.map(String.init) ?? ""
        #expect(line.contains(key), "\(wide.stdout)")
        #expect(line.contains(#""count": 3"#) && line.contains(#""count": 4"#), "\(wide.stdout)")
        #expect(line.count <= 160, "\(line.count): \(line)")

        sandbox.environmentOverrides["COLUMNS"] = "80"
        let narrow = try sandbox.jarvis("--agent", pid, "history")
        let short = narrow.stdout.split(separator: "\n").first { $0.contains("can undo") }.map(String.init) ?? ""
        #expect(!short.isEmpty && short.count <= 80, "\(short.count): \(narrow.stdout)")

        sandbox.environmentOverrides["COLUMNS"] = "160"
        let undo = try sandbox.jarvis("--agent", pid, "undo", "--dry-run")
        #expect(undo.stdout.contains(key), "\(undo.stdout)")
    }
}
