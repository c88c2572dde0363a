import Foundation
import JarvisCore
import JarvisRemote
import JarvisTestSupport
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `jarvis-agent` with a Secret Service whose bus accepts and never answers (a hung
/// desktop keyring): whatever path a client takes into that storage — a listing of
/// everything, an export, a listing of the keyring alone, its containers, a `get`, a `set`, a
/// `delete`, a `watch`, the list of scanners — only that client waits. Every other client's
/// `ping`, `hello` and `get` are answered meanwhile, and the waiting client gets one complete,
/// valid line within the request timeout (an error, or a listing that names the storage that
/// timed out) and its connection answers its next request.
@Suite(.serialized)
final class LoopMovesBytesEndToEndTests {
    let sandbox: Sandbox
    let bus: SilentListener
    let suites: URL

    init() throws {
        sandbox = try Sandbox()
        bus = try SilentListener(path: sandbox.root.appendingPathComponent("bus").path)
        sandbox.environmentOverrides["DBUS_SESSION_BUS_ADDRESS"] = bus.busAddress
        suites = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("app", in: suites, ["name": "Ada", "count": 3])
    }

    /// Every request that reaches the keyring, by what it exercises.
    static let stuckPaths: [(String, String)] = [
        ("list of everything", #"{"jsonrpc":"2.0","id":7,"method":"list"}"#),
        ("export", #"{"jsonrpc":"2.0","id":7,"method":"list","params":{"export":true}}"#),
        ("list of the keyring", #"{"jsonrpc":"2.0","id":7,"method":"list","params":{"scanner":"secrets"}}"#),
        ("containers", #"{"jsonrpc":"2.0","id":7,"method":"containers","params":{"scanner":"secrets"}}"#),
        (
            "get",
            #"{"jsonrpc":"2.0","id":7,"method":"get","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
        ),
        (
            "set",
            #"{"jsonrpc":"2.0","id":7,"method":"set","params":{"scanner":"secrets","container":"github.com","key":"ada","value":"x"}}"#
        ),
        (
            "delete",
            #"{"jsonrpc":"2.0","id":7,"method":"delete","params":{"scanner":"secrets","container":"github.com","key":"ada"}}"#
        ),
        ("watch", #"{"jsonrpc":"2.0","id":7,"method":"watch","params":{"scanner":"secrets"}}"#),
        ("scanners", #"{"jsonrpc":"2.0","id":7,"method":"scanners"}"#),
    ]

    @Test(arguments: stuckPaths.map(\.0))
    func aClientWaitingOnAHungKeyringHoldsOnlyItself(_ path: String) throws {
        let request = try #require(Self.stuckPaths.first { $0.0 == path }?.1)
        let agent = try AgentProcess(
            sandbox, ["--secret-service", "--defaults-dir", suites.path, "--request-timeout", "3"])
        var other = try RawAgentClient(agent)
        #expect(try other.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")?["result"] != nil)

        var stuck = try RawAgentClient(agent)
        stuck.socket.send(request + "\n")
        // The agent's call reached the silent bus (or waits behind the one that did); the
        // list of scanners may answer from what it knows.
        if path != "scanners" { try waitUntil("the agent connected to the bus") { bus.accepted > 0 } }
        for id in 2..<22 {
            let ping = try other.ask(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n")
            #expect(ping?["result"]?["pong"] == .bool(true), "\(path): \(String(describing: ping))")
            let hello = try other.ask(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"hello","params":{"client":"other","protocolVersion":"1.0"}}"# + "\n")
            #expect(hello?["result"] != nil, "\(path): \(String(describing: hello))")
            let get = try other.ask(
                #"{"jsonrpc":"2.0","id":\#(id),"method":"get","params":{"scanner":"defaults","container":"app","key":"name"}}"#
                + "\n")
            #expect(get?["result"]?["item"]?["value"]?.stringValue == "Ada", "\(path): \(String(describing: get))")
        }

        // The stuck client's own answer: one complete line, within the timeout and a margin.
        let answer = try stuck.reader.nextJSON(timeout: .seconds(30))
        #expect(answer?["id"]?.int64Value == 7, "\(path): \(String(describing: answer))")
        if let result = answer?["result"], path.hasPrefix("list") || path == "export" {
            let problems = result["problems"]?.arrayValue ?? []
            #expect(
                problems.contains { $0["scanner"]?.stringValue == "secrets" },
                "\(path): the answer names the keyring: \(String(describing: answer))")
            if path != "list of the keyring" {
                #expect(
                    result["items"]?.arrayValue?.contains { $0["key"]?.stringValue == "name" } == true,
                    "\(path): the defaults read before the keyring are in the answer")
            }
        } else if path != "scanners" && path != "watch" {
            #expect(answer?.errorCode == -32007, "\(path): \(String(describing: answer))")
        }
        // Its connection goes on.
        let after = try stuck.ask(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"# + "\n", timeout: .seconds(10))
        #expect(after?["result"]?["pong"] == .bool(true), "\(path): \(String(describing: after))")
        #expect(agent.isAlive)
    }
}
