import Dispatch
import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisRemote

/// A scanner with one container; its listing of containers waits at a gate when asked to
/// (a keyring that never answers).
private final class GatedScanner: PreferenceScanner {
    let id: String
    /// Whether a listing of containers waits at the gate now.
    let hangs: Locked<Bool>
    let gate = DispatchSemaphore(value: 0)
    let asked = Locked(0)

    init(id: String, hangs: Bool) {
        self.id = id
        self.hangs = Locked(hangs)
    }

    var info: ScannerInfo { ScannerInfo(displayName: id, isWritable: true) }
    func container(named name: String) throws -> ContainerInfo? {
        try containers().first { $0.name == name }
    }
    func containers() throws -> [ContainerInfo] {
        asked.withLock { $0 += 1 }
        if hangs.current { _ = gate.wait(timeout: .now() + 60) }
        return [ContainerInfo("\(id)-box")]
    }
    func read(_ request: ReadRequest) throws -> [ScannedEntry] { [ScannedEntry(key: "k", value: .integer(1))] }
    func write(_ request: WriteRequest) throws {}
}

/// `containers` without a scanner, as `jarvis ls` and `jarvis mcp` ask it, over the agent's
/// real socket: a scanner whose containers never come is one entry with a problem, and the
/// scanners before and after it are answered, within the request timeout.
@Suite(.serialized) struct ContainersOfEveryScannerTests {
    @Test func aHungScannerIsOneEntryAndTheOthersAreAnswered() throws {
        let fixture = try AgentFixture(tcp: false) { $0.requestTimeout = .milliseconds(700) }
        let hung = GatedScanner(id: "hung", hangs: true)
        let later = GatedScanner(id: "later", hangs: false)
        fixture.agent.register(hung)
        fixture.agent.register(later)
        defer { for _ in 0..<4 { hung.gate.signal() } }
        let client = try fixture.raw(fixture.unix)

        let answer = try client.ask(#"{"jsonrpc":"2.0","id":4,"method":"containers"}"#)
        #expect(answer?["id"]?.int64Value == 4, "\(String(describing: answer))")
        let containers = answer?["result"]?["containers"]?.arrayValue ?? []
        let names = containers.map { "\($0["scanner"]?.stringValue ?? "?"):\($0["name"]?.stringValue ?? "?")" }
        #expect(names.contains("memory:app"), "\(names)")
        #expect(names.contains("later:later-box"), "the scanner after the hung one was not asked: \(names)")
        let entry = containers.first { $0["scanner"]?.stringValue == "hung" }
        #expect(entry?["name"]?.stringValue == "", "\(String(describing: entry))")
        #expect(
            entry?["problem"]?.stringValue?.contains("did not answer within 700 ms") == true,
            "\(String(describing: entry))")
        // The same connection goes on, and its answer is the typed client's too.
        #expect(try client.ask(#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#)?["result"] != nil)
        #expect(hung.asked.current == 1)

        // Once the storage answers again, so does the agent, wholly.
        hung.hangs.withLock { $0 = false }
        hung.gate.signal()
        let typed = try JarvisClient(endpoint: fixture.unix, timeout: .seconds(30))
        defer { typed.close() }
        let again = try typed.containers(scanner: nil).map { "\($0.scanner):\($0.name)" }
        #expect(again.contains("hung:hung-box") && again.contains("later:later-box"), "\(again)")
    }

    @Test func oneScannerAsksThatScannerAlone() throws {
        let fixture = try AgentFixture(tcp: false)
        let later = GatedScanner(id: "later", hangs: false)
        fixture.agent.register(later)
        let client = try fixture.raw(fixture.unix)
        let answer = try client.ask(#"{"jsonrpc":"2.0","id":4,"method":"containers","params":{"scanner":"later"}}"#)
        #expect(
            answer?["result"]
                == .object([
                    "containers": .array([
                        .object(["scanner": .string("later"), "name": .string("later-box"), "writable": .bool(true)])
                    ])
                ]), "\(String(describing: answer))")
        // The answer of every scanner is the bytes of the whole answer built at once.
        try client.client.send(Array(#"{"jsonrpc":"2.0","id":6,"method":"containers"}"#.utf8))
        let every = String(decoding: try #require(try client.client.receiveLine(timeout: .seconds(10))), as: UTF8.self)
        let built = try fixture.agent.hub.containers()
        #expect(
            every
                == String(
                    decoding: RPCResponse.success(
                        id: .integer(6), result: Wire.ContainersResult(built.map(Wire.Container.init)).json),
                    as: UTF8.self),
            "\(every)")
    }

    /// A request naming a container alone, over the socket, while one scanner never answers:
    /// a read is answered from the one container found; a write, and a name found nowhere,
    /// say which scanner did not answer; the stuck scanner is asked once, however often the
    /// others are.
    @Test func aContainerNamedAloneIsLookedUpWithoutWaitingForAHungScanner() throws {
        let fixture = try AgentFixture(tcp: false) { $0.requestTimeout = .seconds(3) }
        let hung = GatedScanner(id: "hung", hangs: true)
        fixture.agent.register(hung)
        defer { for _ in 0..<4 { hung.gate.signal() } }
        let client = try fixture.raw(fixture.unix)
        for id in 1...5 {
            let read = try client.ask(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"get","params":{"container":"app","key":"name"}}"#)
            #expect(read?["result"]?["item"]?["value"]?.stringValue == "Ada", "\(String(describing: read))")
        }
        #expect(hung.asked.current == 1, "a stuck scanner was asked again while its first call ran")
        let write = try client.ask(
            #"{"jsonrpc":"2.0","id":6,"method":"set","params":{"container":"app","key":"name","value":"Eve"}}"#)
        let refusal = write?["error"]?["message"]?.stringValue ?? ""
        #expect(write?.errorCode == -32007, "\(String(describing: write))")
        #expect(
            refusal.contains("scanner hung did not answer within 1 s") && refusal.contains("memory:app"), "\(refusal)")
        let missing = try client.ask(
            #"{"jsonrpc":"2.0","id":7,"method":"get","params":{"container":"nowhere","key":"name"}}"#)
        #expect(
            missing?["error"]?["message"]?.stringValue?.contains("no container 'nowhere' in the scanners that answered")
                == true, "\(String(describing: missing))")
        // Once it answers, the lookup is whole again: a write by the container's name works.
        hung.hangs.withLock { $0 = false }
        hung.gate.signal()
        #expect(eventually { hung.asked.current >= 1 })
        var written: JSONValue?
        #expect(
            eventually {
                written = try? client.ask(
                    #"{"jsonrpc":"2.0","id":8,"method":"set","params":{"container":"app","key":"name","value":"Eve"}}"#)
                return written?["result"] != nil
            }, "\(String(describing: written))")
    }

    /// A client that names no timeout waits as long as the agent said in `hello` (and a
    /// margin), so the agent's reason arrives; one that names a timeout keeps to it.
    @Test func aClientWaitsForTheAgentsReasonUnlessToldOtherwise() throws {
        let fixture = try AgentFixture(tcp: false) { $0.requestTimeout = .seconds(2) }
        let hung = GatedScanner(id: "hung", hangs: true)
        fixture.agent.register(hung)
        defer { for _ in 0..<4 { hung.gate.signal() } }
        let patient = try JarvisClient(endpoint: fixture.unix)
        defer { patient.close() }
        #expect(patient.helloResult.capabilities.requestTimeout == .seconds(2))
        do {
            _ = try patient.containers(scanner: "hung")
            Issue.record("a hung scanner answered")
        } catch {
            #expect(error.message.contains("(scanner hung) is not answering"), "\(error.message)")
        }
        let hasty = try JarvisClient(endpoint: fixture.unix, timeout: .milliseconds(200))
        defer { hasty.close() }
        do {
            _ = try hasty.containers(scanner: "hung")
            Issue.record("a hung scanner answered")
        } catch {
            #expect(error.message.contains("no reply in time"), "\(error.message)")
        }
    }
}
