import JarvisCore
import Testing

@testable import JarvisRemote

@Suite struct RPCRequestIDTests {
    @Test func findsTheIDWhereverItComesBeforeTheCut() {
        #expect(
            RPCRequest.id(inPrefix: Array(#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"#.utf8)) == 12)
        #expect(
            RPCRequest.id(inPrefix: Array(#"{ "method" : "x", "params":{"a":[1,{"b":"}"}]}, "id" : "r-7" ,"#.utf8))
                == "r-7")
        #expect(RPCRequest.id(inPrefix: Array(#"{"jsonrpc":"2.0","id":3}"#.utf8)) == 3)
    }

    @Test func anIDBeyondTheCutOrOfTheWrongKindIsNotGuessed() {
        #expect(RPCRequest.id(inPrefix: Array(#"{"jsonrpc":"2.0","params":{"value":"xxxxxxxx"#.utf8)) == nil)
        #expect(RPCRequest.id(inPrefix: Array(#"{"id":null,"method":"x"}"#.utf8)) == nil)
        #expect(RPCRequest.id(inPrefix: Array(#"{"id":{"a":1},"method":"x"}"#.utf8)) == nil)
        #expect(RPCRequest.id(inPrefix: Array("[1,2,3]".utf8)) == nil)
        #expect(RPCRequest.id(inPrefix: []) == nil)
    }
}
