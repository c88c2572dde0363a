import Foundation
import JarvisCore
import Testing

/// Issue 47 item 3 against the real agent: a `list` whose key glob is `*aaa…b` (50,000
/// characters) over a JSON file holding a key of 100,000 characters. Matching backtracked to
/// the `*` at every character of the key (14 s of CPU each in a release build), and six such
/// requests at once kept another client's `get` waiting past its timeout. Matched in one pass
/// over the key, the six are answered (nothing matches) and the other client's `get` is
/// answered meanwhile.
@Suite(.serialized) struct CostlyGlobEndToEndTests {
    @Test func sixCostlyGlobsLeaveAnotherClientsGetAnswered() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let longKey = String(repeating: "a", count: 100_000)
        let file = folder.appendingPathComponent("app.json")
        try Data(#"{"name": "Ada", "\#(longKey)": 1}"#.utf8).write(to: file)
        let before = try Data(contentsOf: file)
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let pattern = "*" + String(repeating: "a", count: 50_000) + "b"
        var costly: [RawAgentClient] = []
        for index in 0..<6 {
            let client = try RawAgentClient(agent)
            client.socket.send(
                #"{"jsonrpc":"2.0","id":\#(index),"method":"list","params":{"scanner":"files","container":"app.json","key":"\#(pattern)"}}"#
                    + "\n")
            costly.append(client)
        }
        var other = try RawAgentClient(agent)
        let answer = try other.ask(
            #"{"jsonrpc":"2.0","id":99,"method":"get","params":{"scanner":"files","container":"app.json","key":"name"}}"# + "\n",
            timeout: .seconds(10))
        #expect(answer?["result"]?["item"]?["value"] == .string("Ada"), "the other client's get: \(String(describing: answer))")
        for index in costly.indices {
            let listed = try costly[index].reader.nextJSON(timeout: .seconds(20))
            #expect(listed?["result"]?["items"] == .array([]), "costly list \(index): \(String(describing: listed))")
            costly[index].socket.close()
        }
        other.socket.close()
        #expect(try Data(contentsOf: file) == before)
    }
}
