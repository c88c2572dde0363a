import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27 item 2 against the real agent: one answer larger than what the agent may still
/// queue is refused with a clear error, not held whole for a client that never reads (48
/// clients each asking a 15 MiB value took the agent from 67 to 787 MiB, kept after they left).
@Suite struct AnswerBudgetEndToEndTests {
    /// The output budget PROTOCOL.md promises for all clients together, and room for what the
    /// measurement cannot pin down (the allocator, the refusals queued, the sockets).
    static let budget = 8 << 20
    static let margin = 40 << 20

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc (Linux): it reads resident memory there"))
    func clientsThatNeverReadAFifteenMebibyteValueStayWithinTheBudget() throws {
        let sandbox = try Sandbox()
        // As BacklogMemoryEndToEndTests: large blocks are mappings of their own, so resident
        // memory tells what the agent keeps.
        sandbox.environmentOverrides["MALLOC_MMAP_THRESHOLD_"] = "131072"
        let folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blob = String(repeating: "a", count: 15 << 20)
        try Data(#"{"blob": "\#(blob)", "small": 1}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let getBlob = #"{"jsonrpc":"2.0","id":9,"method":"get","params":{"scanner":"files","container":"app.json","key":"blob"}}"#

        // A client that reads is told why, by the request's id.
        let reader = try agent.socket()
        var answers = LineReader(reader)
        reader.send(getBlob + "\n")
        let refused = try answers.nextJSON()
        #expect(refused?["id"]?.int64Value == 9)
        #expect(refused?.errorCode == -32006, "\(String(describing: refused))")
        let message = refused?["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("pointer"), "\(message)")
        let before = try ListMemoryEndToEndTests.settledMemory(of: agent)

        var silent: [Socket] = []
        for _ in 0..<48 {
            let socket = try agent.socket()
            socket.send(getBlob + "\n")
            silent.append(socket)
        }
        // Every one of them was answered (a later request of the reader is answered after the
        // loop read theirs, or the memory settles first).
        reader.send(#"{"jsonrpc":"2.0","id":10,"method":"get","params":{"scanner":"files","container":"app.json","key":"small"}}"# + "\n")
        #expect(try answers.nextJSON()?["result"] != nil)
        let during = try ListMemoryEndToEndTests.settledMemory(of: agent)
        let bound = before.resident + Self.budget + Self.margin
        #expect(
            during.resident <= bound,
            "48 silent clients of a 15 MiB value hold the agent at \(during.resident >> 20) MiB (\(before.resident >> 20) MiB before; bound \(bound >> 20) MiB)"
        )
        for socket in silent { socket.close() }
        let after = try ListMemoryEndToEndTests.settledMemory(of: agent)
        #expect(
            after.resident <= before.resident + Self.margin,
            "after the clients left the agent holds \(after.resident >> 20) MiB (\(before.resident >> 20) MiB before)")
    }
}
