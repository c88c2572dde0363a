import JarvisCore
import Testing

@testable import JarvisRemote
@testable import JarvisTransport

/// The one request decoder, with byte strings: the agent's rules and MCP's differ only where
/// MCP narrows JSON-RPC 2.0 (ids) or JSON-RPC leaves a choice (unknown members).
@Suite struct RPCMessageTests {
    /// MCP's rules, as `jarvis mcp` sets them.
    static let mcp = RPCMessage.Rules(
        maxDepth: RPCRequest.maxDepth, nullAndFractionalIDs: false, refusesUnknownMembers: false, recoversIDs: true)

    private func failure(_ line: String, _ rules: RPCMessage.Rules = .agent) -> RPCFailure? {
        failure(Array(line.utf8), rules)
    }

    private func failure(_ line: [UInt8], _ rules: RPCMessage.Rules = .agent) -> RPCFailure? {
        do {
            _ = try RPCMessage.decode(line, rules: rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func requestsAndNotificationsReadAlikeUnderBothRules() throws {
        for rules in [RPCMessage.Rules.agent, Self.mcp] {
            let request = try RPCMessage.decode(
                Array(#"{"jsonrpc":"2.0","id":"r-1","method":"tools/list","params":{"cursor":"c"}}"#.utf8), rules: rules
            )
            #expect(request == .request(RPCRequest(id: "r-1", method: "tools/list", params: ["cursor": "c"])))
            let notification = try RPCMessage.decode(
                Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8), rules: rules)
            #expect(notification == .request(RPCRequest(id: nil, method: "notifications/initialized")))
        }
    }

    @Test func anAnswerIsToldApartAndTheAgentRefusesIt() throws {
        let line = Array(#"{"jsonrpc":"2.0","id":5,"result":{}}"#.utf8)
        #expect(try RPCMessage.decode(line, rules: Self.mcp) == .answer(id: 5))
        let error = Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#.utf8)
        #expect(try RPCMessage.decode(error, rules: Self.mcp) == .answer(id: .null))
        #expect(
            throws: RPCFailure(
                id: 5, error: .invalidRequest("this line is an answer, but the agent sends no requests; send a request")
            )
        ) {
            try RPCRequest.decode(line)
        }
    }

    @Test func mcpIDsAreStringsOrWholeNumbersAndUnknownMembersAreIgnored() {
        #expect(failure(#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#) == nil)
        #expect(failure(#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#) == nil)
        for id in ["null", "1.5", "true", "[1]"] {
            #expect(
                failure(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#, Self.mcp)
                    == RPCFailure(id: .null, error: .invalidRequest(#""id" must be a string or a whole number"#)))
        }
        #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}"#, Self.mcp) == nil)
        #expect(
            failure(#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}"#)
                == RPCFailure(id: 1, error: .invalidRequest("unknown request member 'extra'")))
    }

    @Test func hostileLinesFailAlikeUnderBothRules() {
        let deep = #"{"jsonrpc":"2.0","id":"d","method":"set","params":{"value":"# + String(repeating: "[", count: 600)
        let lines: [[UInt8]] = [
            Array("not json".utf8),
            Array(#"{"jsonrpc":"2.0","id":2,"method":"x","params":{"s":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8),
            Array(#"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#.utf8),
            Array(#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#.utf8),
            Array(deep.utf8),
            Array(#"{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}"#.utf8),
        ]
        // The agent answers a parse error under null (JSON-RPC 2.0); MCP under the id it sees.
        let agentIDs: [JSONValue] = [.null, .null, .null, 4, .null, 6]
        let mcpIDs: [JSONValue] = [.null, 2, .null, 4, "d", 6]
        let codes = [-32700, -32700, -32600, -32600, -32700, -32602]
        for (index, line) in lines.enumerated() {
            let agent = failure(line)
            let mcp = failure(line, Self.mcp)
            #expect(agent != nil && agent?.error == mcp?.error, "line \(index)")
            #expect(agent?.id == agentIDs[index] && mcp?.id == mcpIDs[index], "line \(index)")
            #expect(agent?.error.code == codes[index], "line \(index)")
        }
    }

    @Test func rulesThatRecoverIDsAnswerAParseErrorUnderTheIDTheLinesStartShows() {
        #expect(failure(#"{"jsonrpc":"2.0","id":"abc","method":"get","params":{"#, Self.mcp)?.id == "abc")
        #expect(failure(#"{"jsonrpc":"2.0","id":"abc","method":"get","params":{"#)?.id == .null)
        #expect(
            failure(#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"#, Self.mcp)?.id
                == (try? JSONParser.parse("12345678901234567890")))
        // The id past the first bytes kept for it is not guessed.
        let late =
            #"{"params":{"v":""# + String(repeating: "a", count: LineFramer.overflowPrefixLength) + #""},"id":1,"#
        #expect(failure(late, Self.mcp)?.id == .null)
    }
}
