import JarvisCore
import Testing

@testable import jarvis

@Suite struct MCPRequestIDTests {
    @Test func findsTheIDWhereverItComesBeforeTheCut() {
        #expect(MCPRequestID.find(in: Array(#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"#.utf8)) == 12)
        #expect(
            MCPRequestID.find(in: Array(#"{ "method" : "x", "params":{"a":[1,{"b":"}"}]}, "id" : "r-7" ,"#.utf8))
                == "r-7")
        #expect(MCPRequestID.find(in: Array(#"{"jsonrpc":"2.0","id":3}"#.utf8)) == 3)
    }

    @Test func anIDBeyondTheCutOrOfTheWrongKindIsNotGuessed() {
        #expect(MCPRequestID.find(in: Array(#"{"jsonrpc":"2.0","params":{"value":"xxxxxxxx"#.utf8)) == nil)
        #expect(MCPRequestID.find(in: Array(#"{"id":null,"method":"x"}"#.utf8)) == nil)
        #expect(MCPRequestID.find(in: Array(#"{"id":{"a":1},"method":"x"}"#.utf8)) == nil)
        #expect(MCPRequestID.find(in: Array("[1,2,3]".utf8)) == nil)
        #expect(MCPRequestID.find(in: []) == nil)
    }
}
