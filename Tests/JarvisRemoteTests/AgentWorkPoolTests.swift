import Dispatch
import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote
@testable import JarvisTransport

/// A scanner whose writes wait until the test opens its gate: storage that is stuck, as a
/// `simctl` call or a locked keyring can be.
private final class StuckScanner: PreferenceScanner {
    let id = "stuck"
    let gate = DispatchSemaphore(value: 0)
    let entered = Locked(0)
    /// Writes that came back from the gate (opened, or after 30 s).
    let left = Locked(0)

    var info: ScannerInfo { ScannerInfo(displayName: "stuck", isWritable: true) }
    func containers() throws -> [ContainerInfo] { [ContainerInfo("box")] }
    func read(_ request: ReadRequest) throws -> [ScannedEntry] { [ScannedEntry(key: "k", value: .integer(1))] }
    func write(_ request: WriteRequest) throws {
        entered.withLock { $0 += 1 }
        _ = gate.wait(timeout: .now() + 30)
        left.withLock { $0 += 1 }
    }
}

/// Requests that may wait on storage run on the agent's work pool, in order per connection:
/// one client's stuck write delays no other client.
@Suite(.serialized) struct AgentWorkPoolTests {
    private static let stuckSet =
        #"{"jsonrpc":"2.0","id":7,"method":"set","params":{"scanner":"stuck","container":"box","key":"k","value":2}}"#
    private static let get =
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"scanner":"memory","container":"app","key":"name"}}"#

    @Test func anotherClientsGetsAndNotificationsFlowWhileAWriteIsStuck() throws {
        let fixture = try AgentFixture(tcp: false)
        let stuck = StuckScanner()
        fixture.agent.register(stuck)
        defer { for _ in 0..<4 { stuck.gate.signal() } }
        let writer = try fixture.raw(fixture.unix)
        let reader = try fixture.raw(fixture.unix)
        let watcher = try fixture.raw(fixture.unix)
        let watching = try watcher.ask(#"{"jsonrpc":"2.0","id":3,"method":"watch","params":{"container":"app"}}"#)
        #expect(watching?["result"] != nil, "\(String(describing: watching))")

        try writer.client.send(Array(Self.stuckSet.utf8))
        #expect(eventually { stuck.entered.current == 1 }, "the write never reached the scanner")

        // Every get is answered while the write is still held at the gate: none waits on it.
        // (How fast they answer is `jarvis-bench --only stuck`'s figure, not this test's.)
        for _ in 0..<200 {
            let answer = try reader.ask(Self.get)
            #expect(answer?["result"] != nil)
        }
        #expect(stuck.left.current == 0, "the stuck write came back before the gets were answered")

        // A write to other storage runs on another thread of the pool, and its change is heard.
        let setter = try fixture.raw(fixture.unix)
        let set = try setter.ask(
            #"{"jsonrpc":"2.0","id":4,"method":"set","params":{"scanner":"memory","container":"app","key":"name","value":"Eve"}}"#
        )
        #expect(set?["result"] != nil, "\(String(describing: set))")
        let notification = try watcher.next()
        #expect(notification?["method"]?.stringValue == "changed", "\(String(describing: notification))")

        stuck.gate.signal()
        let written = try writer.next()
        #expect(written?["id"]?.int64Value == 7)
        #expect(written?["result"] != nil, "\(String(describing: written))")
    }

    @Test func aStuckCallTimesOutForItsOwnClientOnly() throws {
        let fixture = try AgentFixture(tcp: false) { $0.requestTimeout = .milliseconds(500) }
        let stuck = StuckScanner()
        fixture.agent.register(stuck)
        defer { for _ in 0..<4 { stuck.gate.signal() } }
        let writer = try fixture.raw(fixture.unix)
        let reader = try fixture.raw(fixture.unix)

        let start = ContinuousClock.now
        let refused = try writer.ask(Self.stuckSet)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(refused?["id"]?.int64Value == 7)
        #expect(refused?.errorCode == -32007, "\(String(describing: refused))")
        let message = refused?["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("did not finish within 500 ms"), "\(message)")
        // The same client goes on while its stuck call still holds a thread.
        #expect(try writer.ask(Self.get)?["result"] != nil)
        #expect(try reader.ask(Self.get)?["result"] != nil)
        #expect(stuck.entered.current == 1)
    }

    @Test func requestsOfOneConnectionAreAnsweredInOrder() throws {
        let fixture = try AgentFixture(tcp: false)
        let client = try fixture.raw(fixture.unix)
        // A write (in the pool), then gets that could be answered at once: they wait their turn.
        var lines: [UInt8] = []
        for id in 0..<50 {
            let line =
                id % 5 == 0
                ? #"{"jsonrpc":"2.0","id":\#(id),"method":"set","params":{"scanner":"memory","container":"app","key":"count","value":\#(id)}}"#
                : #"{"jsonrpc":"2.0","id":\#(id),"method":"get","params":{"scanner":"memory","container":"app","key":"count"}}"#
            lines += Array(line.utf8) + [0x0A]
        }
        try client.client.send(Array(lines.dropLast()))
        var lastSet: Int64 = -1
        for id in 0..<50 {
            let answer = try #require(try client.next())
            #expect(answer["id"]?.int64Value == Int64(id))
            if id % 5 == 0 {
                lastSet = Int64(id)
            } else {
                #expect(answer["result"]?["item"]?["value"]?.int64Value == lastSet, "\(answer)")
            }
        }
    }
}
