import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote
@testable import JarvisTransport

/// Hostile input, floods and concurrency against the real `jarvis-agent` binary: after each,
/// the host process is alive and a new client is served correctly.
@Suite(.serialized) struct ReliabilityTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        var values: [String: Any] = ["user_name": "Ada", "launch_count": 3]
        for index in 0..<200 { values["key_\(index)"] = "value \(index) " + String(repeating: "x", count: 40) }
        try sandbox.writeSuite("com.example.app", in: folder, values)
    }

    private func startAgent() throws -> AgentProcess {
        try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--listen", "127.0.0.1:0"])
    }

    /// Sends one catalogue input on a fresh connection and checks the outcome.
    private func run(_ input: BadInput, on agent: AgentProcess) throws {
        let endpoint = input.overTCP ? try agent.tcp() : agent.unix
        let socket = try agent.socket(endpoint)
        defer { socket.close() }
        var reader = LineReader(socket)
        socket.send(input.bytes)
        let followUp =
            input.overTCP
            ? #"{"jsonrpc":"2.0","id":"after","method":"hello","params":{"token":"\#(agent.record.token ?? "")"}}"#
            : #"{"jsonrpc":"2.0","id":"after","method":"ping"}"#
        switch input.outcome {
        case .error(let code), .errorWithNullID(let code):
            let answer = try reader.nextJSON()
            #expect(answer?.errorCode == code, "\(input): \(String(describing: answer))")
            if case .errorWithNullID = input.outcome { #expect(answer?["id"] == .null, "\(input)") }
            #expect(answer?["error"]?["message"]?.stringValue?.isEmpty == false, "\(input)")
        case .result:
            let answer = try reader.nextJSON()
            #expect(answer?["result"] != nil, "\(input): \(String(describing: answer))")
        case .noAnswer:
            break
        case .errorThenClose(let code):
            let answer = try reader.nextJSON()
            #expect(answer?.errorCode == code, "\(input): \(String(describing: answer))")
            #expect(try reader.next() == nil, "\(input): the connection stayed open")
            return
        }
        socket.send(followUp + "\n")
        let after = try reader.nextJSON()
        #expect(
            after?["id"] == .string("after") && after?["result"] != nil, "\(input): then \(String(describing: after))")
    }

    @Test func everyBadInputGetsItsExpectedOutcome() throws {
        let agent = try startAgent()
        #expect(BadInput.all.count >= 30)
        for input in BadInput.all {
            try run(input, on: agent)
            #expect(agent.isAlive, "the host died after \(input)")
            #expect(agent.answersANewClient(), "no correct answer after \(input)")
        }
    }

    @Test func partialLinesSlowClientsAndConnectionChurn() throws {
        let agent = try startAgent()
        // A partial line, then the client goes away.
        for _ in 0..<20 {
            let socket = try agent.socket()
            socket.send(#"{"jsonrpc":"2.0","id":1,"meth"#)
            socket.close()
        }
        #expect(agent.isAlive && agent.answersANewClient())

        // A byte at a time, with pauses.
        let slow = try agent.socket()
        var reader = LineReader(slow)
        for byte in Array(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.utf8) + [0x0A] {
            slow.send([byte])
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(try reader.nextJSON()?["result"]?["pong"] == .bool(true))
        slow.close()

        // 1,000 connects and disconnects in a row, half of them over TCP.
        // A full backlog makes a Unix connect fail with EAGAIN: the client waits and retries,
        // as any client must; the agent must simply keep up and stay healthy.
        var retries = 0
        for index in 0..<1000 {
            let endpoint = index.isMultiple(of: 2) ? agent.unix : try agent.tcp()
            while true {
                do {
                    try agent.socket(endpoint).close()
                    break
                } catch let error as SocketError where error.errno == EAGAIN && retries < 10_000 {
                    retries += 1
                    Thread.sleep(forTimeInterval: 0.001)
                }
            }
        }
        #expect(agent.isAlive && agent.answersANewClient())
    }

    @Test func aClientThatNeverReadsIsDropped() throws {
        let agent = try startAgent()
        let baseline = agent.residentKiB
        let socket = try agent.socket()
        // Each answer is about 20 KB; 2,000 of them pass the 8 MiB output cap long before the
        // kernel buffers fill, so the agent must drop the client rather than queue them.
        let request =
            Array(#"{"jsonrpc":"2.0","id":1,"method":"list","params":{"container":"com.example.app"}}"#.utf8) + [0x0A]
        for _ in 0..<2000 { socket.send(request) }
        // Without reading a byte: a dropped Unix stream peer shows as a hang-up in poll.
        let dropped = try socket.wait(for: 0, until: .now + .seconds(60))
        #expect(dropped, "the agent kept a client that reads nothing")
        socket.close()
        #expect(agent.isAlive && agent.answersANewClient())
        #expect(agent.residentKiB - baseline < 64 * 1024, "RSS grew by \(agent.residentKiB - baseline) KiB")
    }
}
