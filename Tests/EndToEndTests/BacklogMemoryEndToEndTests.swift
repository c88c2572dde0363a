import Foundation
import JarvisCore
import JarvisRemote
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 item 6 against the real agent: what it keeps for watchers that resume is bounded
/// in bytes (16 MiB of keys and values), not only in events, so large values set while a
/// client watched do not stay in memory after it leaves (one watcher and 1,100 sets of 900 KB
/// once kept the agent at about 1 GB).
@Suite struct BacklogMemoryEndToEndTests {
    /// The backlog's byte budget (`ChangeEngine`), and room for what the measurement cannot pin
    /// down (the allocator's arenas, the file's cached versions, the watcher's queued output).
    /// A debug agent grows by about 53 MiB here whether 80 or 160 values are set; on the code
    /// before the budget (6affa19) it grew by 95 MiB with 80 and 140 MiB with 160.
    static let budget = 16 << 20
    static let margin = 64 << 20

    @Test func largeValuesSetWhileWatchedAreNotAllKept() throws {
        let sandbox = try Sandbox()
        // The C library's allocator hands out every block of 128 KiB or more as a mapping of its
        // own and unmaps it when freed: resident memory then tells what the agent keeps, not
        // the most it held at once. (Left to itself, the allocator raises that threshold after
        // the first large free and keeps later large blocks in its heap, so resident memory
        // followed how far behind the watcher read, and passed the bound on a loaded machine.)
        sandbox.environmentOverrides["MALLOC_MMAP_THRESHOLD_"] = "131072"
        let folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"blob": "seed"}"#.utf8).write(to: folder.appendingPathComponent("app.json"))
        let agent = try AgentProcess(sandbox, ["--files", folder.path])

        // A watcher that reads everything it is sent, as a live client does.
        let watcher = try agent.socket()
        watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"watch","params":{"scanner":"files"}}"# + "\n")
        var first = LineReader(watcher)
        #expect(try first.nextJSON()?["result"] != nil)
        DispatchQueue.global().async {
            var lines = LineReader(watcher)
            while (try? lines.next(timeout: .seconds(120))) != nil {}
        }

        let writer = try agent.socket()
        var answers = LineReader(writer)
        func set(_ index: Int) throws {
            let letter = Character(UnicodeScalar(UInt8(97 + index % 26)))
            let value = String(repeating: letter, count: 900_000) + "\(index)"
            writer.send(
                #"{"jsonrpc":"2.0","id":\#(index),"method":"set","params":{"scanner":"files","container":"app.json","key":"blob","value":"\#(value)"}}"#
                    + "\n")
            let answer = try answers.nextJSON()
            #expect(answer?["result"] != nil, "\(String(describing: answer?["error"]))")
        }
        try set(0)
        let before = try ListMemoryEndToEndTests.settledMemory(of: agent)
        // 160 changes of 1.8 MB (old and new value) would be 288 MB kept.
        for index in 1...160 { try set(index) }
        watcher.close()
        let after = try ListMemoryEndToEndTests.settledMemory(of: agent)
        let bound = before.resident + Self.budget + Self.margin
        #expect(
            after.resident <= bound,
            "the agent holds \(after.resident >> 20) MiB after the sets (\(before.resident >> 20) MiB before; bound \(bound >> 20) MiB)"
        )
    }
}
