import Foundation
import JarvisCore
import JarvisTransport
import Testing

/// The real `jarvis-agent` while a JSON file it serves is rewritten in place, over and over,
/// as a listing reads it (an editor or a program saving without an atomic rename): every
/// listing is one complete, valid answer (the file's keys, or a problem saying what is wrong
/// where), other clients are answered meanwhile, and once the writes stop the listing shows
/// the last content.
@Suite final class RewrittenFileEndToEndTests {
    let sandbox: Sandbox
    let files: URL
    let file: URL

    init() throws {
        sandbox = try Sandbox()
        files = sandbox.root.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        file = files.appendingPathComponent("big.json")
        try Data(Self.content(round: 0)).write(to: file)
    }

    /// About 4 MB of JSON whose `round` member says which write made it.
    static func content(round: Int) -> [UInt8] {
        var text = "{\"round\": \(round)"
        let value = String(repeating: "v", count: 200)
        for index in 0..<20_000 { text += ",\n  \"k\(index)\": \"\(value)\"" }
        return Array((text + "\n}\n").utf8)
    }

    @Test func listingsOfAFileRewrittenInPlaceAreWholeAndOthersAreAnswered() throws {
        let agent = try AgentProcess(sandbox, ["--files", files.path])
        let rounds = 20
        let writing = Locked(true)
        let path = file.path
        let writer = Thread {
            for round in 1...rounds {
                // In place, in pieces: a reader may meet any prefix of the new content.
                guard let handle = FileHandle(forWritingAtPath: path) else { break }
                handle.truncateFile(atOffset: 0)
                let bytes = Self.content(round: round)
                for start in stride(from: 0, to: bytes.count, by: 64 * 1024) {
                    handle.write(Data(bytes[start..<min(bytes.count, start + 64 * 1024)]))
                }
                try? handle.close()
            }
            writing.withLock { $0 = false }
        }
        writer.start()
        var lister = try RawAgentClient(agent)
        var other = try RawAgentClient(agent)
        var listings = 0
        var pings = 0
        while writing.current || listings < 3 {
            let answer = try lister.ask(
                #"{"jsonrpc":"2.0","id":1,"method":"list","params":{"scanner":"files","container":"big.json","key":"round"}}"#
                    + "\n", timeout: .seconds(60))
            let items = answer?["result"]?["items"]?.arrayValue
            let problems = answer?["result"]?["problems"]?.arrayValue
            #expect(items != nil && problems != nil, "not a whole listing: \(String(describing: answer).prefix(300))")
            #expect(items?.count == 1 || problems?.isEmpty == false, "neither the key nor a problem: \(String(describing: answer).prefix(300))")
            listings += 1
            let ping = try other.ask(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n", timeout: .seconds(20))
            #expect(ping?["result"]?["pong"] == .bool(true))
            pings += 1
        }
        // Settled: the last write's content.
        try waitUntil("the listing shows the last write") {
            let answer = try? lister.ask(
                #"{"jsonrpc":"2.0","id":3,"method":"get","params":{"scanner":"files","container":"big.json","key":"round"}}"#
                    + "\n", timeout: .seconds(30))
            return answer?["result"]?["item"]?["value"]?.int64Value == Int64(rounds)
        }
        #expect(agent.isAlive)
        #expect(pings == listings)
    }
}
