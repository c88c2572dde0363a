import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

/// Issue 38 item 3 against the real agent: a client that names 50,000 containers that do not
/// exist, one `set` each, pipelined on one connection, leaves the agent at most a few MiB
/// larger. It grew by 28 to 60 MiB before: each request's timeout was a dispatch timer of
/// its own, kept for the whole timeout (15 s) however fast the request was answered.
@Suite(.serialized) struct MissingContainerMemoryEndToEndTests {
    /// The bound of the issue: room for the allocator's own slack (its arenas keep some of
    /// what the queued requests used while they waited).
    static let bound = 8 << 20
    static let names = 50_000

    /// `files`: JSON files that are not there (never created). `defaults`: suites a rule hides,
    /// which every request answers as missing (a write there would create them otherwise).
    @Test(arguments: ["files", "defaults"])
    func writesToContainersThatDoNotExistKeepNothing(scanner: String) throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let arguments: [String]
        if scanner == "files" {
            try Data(#"{"seed": 1}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
            arguments = ["--files", folder.path]
        } else {
            try sandbox.writeSuite("app", in: folder, ["seed": 1])
            arguments = ["--defaults-dir", folder.path, "--hide-container", "missing-*"]
        }
        let agent = try AgentProcess(sandbox, arguments)
        let socket = try agent.socket()
        defer { socket.close() }
        // A first round of the same requests: the pool's threads, the allocator's arenas and
        // the agent's fixed tables are made, so what follows counts only what the names keep.
        try Self.set(names: 0..<2_000, scanner: scanner, on: socket)
        let before = try ListMemoryEndToEndTests.settledMemory(of: agent)
        try Self.set(names: 2_000..<(2_000 + Self.names), scanner: scanner, on: socket)
        let after = try ListMemoryEndToEndTests.settledMemory(of: agent)
        let growth = after.resident - before.resident
        #expect(
            growth < Self.bound,
            "\(Self.names) writes to missing containers of '\(scanner)' grew the agent by \(growth >> 10) KiB (\(before.resident >> 20) → \(after.resident >> 20) MiB; bound \(Self.bound >> 20) MiB)"
        )
        #expect(agent.answersANewClient())
    }

    /// Sends one `set` per name, pipelined (written in batches while the answers are read):
    /// each must be refused, the container being missing.
    static func set(names: Range<Int>, scanner: String, on socket: Socket) throws {
        let suffix = scanner == "files" ? ".json" : ""
        DispatchQueue.global().async {
            var batch = ""
            for index in names {
                batch +=
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"set","params":{"scanner":"\#(scanner)","container":"missing-\#(index)\#(suffix)","key":"k","value":"v"}}"#
                    + "\n"
                if batch.utf8.count > 60_000 {
                    socket.send(batch)
                    batch = ""
                }
            }
            socket.send(batch)
        }
        var answers = LineReader(socket)
        for _ in names {
            let answer = try answers.nextJSON(timeout: .seconds(60))
            guard let answer, answer.errorCode != nil else {
                throw HarnessError("a write to a missing container was not refused: \(String(describing: answer))")
            }
        }
    }
}
