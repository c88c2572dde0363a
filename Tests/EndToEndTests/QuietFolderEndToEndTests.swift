import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real agent answers a `get` of a quiet suite without looking at its file (the folder's
/// change notifications are read once per turn of its loop, between reading the requests and
/// answering them): every change another program made before a request was sent is in the
/// answer, for one request at a time and for requests sent together in one write.
@Suite(.serialized) struct QuietFolderEndToEndTests {
    let sandbox: Sandbox
    let suites: URL
    let elsewhere: URL

    init() throws {
        sandbox = try Sandbox()
        suites = sandbox.root.appendingPathComponent("prefs")
        elsewhere = sandbox.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try sandbox.writeSuite("com.example.app", in: suites, ["n": "v000"])
    }

    /// Changes the suite the way round `round` picks: a new file put in place, the file
    /// rewritten in place, or rewritten through a hard link in another folder.
    func change(to value: String, round: Int) throws {
        let file = suites.appendingPathComponent("com.example.app.plist")
        let bytes = try PropertyListSerialization.data(fromPropertyList: ["n": value], format: .xml, options: 0)
        switch round % 3 {
        case 0:
            try bytes.write(to: file, options: .atomic)
        case 1:
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: bytes)
            try handle.close()
        default:
            let link = elsewhere.appendingPathComponent("app-\(round).plist")
            #expect(Glibc.link(file.path, link.path) == 0)
            let handle = try FileHandle(forWritingTo: link)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: bytes)
            try handle.close()
        }
    }

    /// A raw line connection to `agent` that has said hello.
    func connect(_ agent: AgentProcess) throws -> LineClient {
        let client = try LineClient(endpoint: agent.unix, timeout: .seconds(20))
        let hello = #"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"quiet"}}"#
        try client.send(Array(hello.utf8))
        _ = try client.receiveLine(timeout: .seconds(20))
        return client
    }

    #if os(Linux)
        @Test func everyChangeMadeBeforeARequestIsInItsAnswer() throws {
            let agent = try AgentProcess(sandbox, ["--defaults-dir", suites.path])
            let client = try connect(agent)
            defer { client.close() }
            let get = #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"scanner":"defaults","container":"com.example.app","key":"n"}}"#
            for round in 1...150 {
                let value = String(format: "v%03d", round)
                try change(to: value, round: round)
                if round % 2 == 0 {
                    // Two requests in one write: the second is read with the first.
                    try client.send(Array((get + "\n" + get).utf8))
                    for _ in 0..<2 {
                        let answer = try #require(try client.receiveLine(timeout: .seconds(20)))
                        #expect(String(decoding: answer, as: UTF8.self).contains(#""value":"\#(value)""#), "round \(round)")
                    }
                } else {
                    try client.send(Array(get.utf8))
                    let answer = try #require(try client.receiveLine(timeout: .seconds(20)))
                    #expect(String(decoding: answer, as: UTF8.self).contains(#""value":"\#(value)""#), "round \(round)")
                }
            }
        }

        /// A write the agent makes itself is in the answers that follow it in the same turn,
        /// also for a suite it changed through a link: a get, a set through the link and a get
        /// of the link's target, sent in one write.
        @Test func aWriteThroughALinkIsSeenByTheNextRequestOfTheSameTurn() throws {
            try sandbox.writeSuite("prod", in: suites, ["mode": "old"])
            #expect(
                symlink("prod.plist", suites.appendingPathComponent("current.plist").path) == 0)
            let agent = try AgentProcess(sandbox, ["--defaults-dir", suites.path])
            let client = try connect(agent)
            defer { client.close() }
            func get(_ id: Int) -> String {
                #"{"jsonrpc":"2.0","id":\#(id),"method":"get","params":{"scanner":"defaults","container":"prod","key":"mode"}}"#
            }
            for round in 1...20 {
                let value = "v\(round)"
                let set =
                    #"{"jsonrpc":"2.0","id":2,"method":"set","params":{"scanner":"defaults","container":"current","key":"mode","value":"\#(value)"}}"#
                try client.send(Array([get(1), set, get(3)].joined(separator: "\n").utf8))
                var answers: [String] = []
                for _ in 0..<3 {
                    answers.append(String(decoding: try #require(try client.receiveLine(timeout: .seconds(20))), as: UTF8.self))
                }
                #expect(answers[1].contains(#""value":"\#(value)""#), "\(answers[1])")
                #expect(answers[2].contains(#""value":"\#(value)""#), "round \(round): \(answers[2])")
            }
        }
    #endif
}
