import Foundation
import JarvisCore

/// One hostile or malformed input and what the agent must do with it.
struct BadInput: CustomStringConvertible {
    enum Outcome {
        /// An error with this code; the connection stays usable.
        case error(Int64)
        /// An error with this code and `"id":null`; the connection stays usable.
        case errorWithNullID(Int64)
        /// A result (the input is odd but valid).
        case result
        /// No answer at all (a notification); the connection stays usable.
        case noAnswer
        /// An error with this code, then the agent closes the connection.
        case errorThenClose(Int64)
    }

    var name: String
    var bytes: [UInt8]
    var outcome: Outcome
    /// Sent over TCP without hello instead of over the Unix socket.
    var overTCP = false

    var description: String { name }

    init(_ name: String, _ text: String, _ outcome: Outcome, overTCP: Bool = false) {
        self.init(name, Array((text + "\n").utf8), outcome, overTCP: overTCP)
    }

    init(_ name: String, _ bytes: [UInt8], _ outcome: Outcome, overTCP: Bool = false) {
        self.name = name
        self.bytes = bytes
        self.outcome = outcome
        self.overTCP = overTCP
    }

    private static func request(_ method: String, _ params: String, id: String = "1") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    private static func set(_ value: String, type: String? = nil) -> String {
        let typeParam = type.map { #","type":"\#($0)""# } ?? ""
        return request("set", #"{"container":"com.example.app","key":"fuzz","value":\#(value)\#(typeParam)}"#)
    }

    /// The catalogue. Inputs are against an agent serving the suite `com.example.app`.
    static let all: [BadInput] = {
        var list: [BadInput] = [
            // Not JSON at all.
            BadInput("truncated object", "{", .errorWithNullID(-32700)),
            BadInput("plain words", "hello agent", .errorWithNullID(-32700)),
            BadInput("empty line", "", .errorWithNullID(-32700)),
            BadInput("only spaces", "   \t ", .errorWithNullID(-32700)),
            BadInput("trailing garbage", #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#, .errorWithNullID(-32700)),
            BadInput("single quotes", "{'jsonrpc':'2.0','id':1,'method':'ping'}", .errorWithNullID(-32700)),
            BadInput(
                "invalid UTF-8",
                Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xFF, 0xFE] + Array("ing\"}\n".utf8),
                .errorWithNullID(-32700)),
            BadInput(
                "overlong UTF-8 slash",
                Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xC0, 0xAF] + Array("\"}\n".utf8),
                .errorWithNullID(-32700)),
            BadInput(
                "NUL byte in a string",
                Array(#"{"jsonrpc":"2.0","id":1,"method":"pi"#.utf8) + [0] + Array("ng\"}\n".utf8),
                .errorWithNullID(-32700)),
            BadInput(
                "NUL byte between tokens",
                Array(#"{"jsonrpc":"2.0","id":1,"#.utf8) + [0] + Array(#""method":"ping"}"#.utf8) + [0x0A],
                .errorWithNullID(-32700)),
            BadInput(
                "escaped NUL in a key", request("get", #"{"container":"com.example.app","key":"a\u0000b"}"#),
                .error(-32003)),
            BadInput(
                "lone surrogate escape", request("get", #"{"container":"com.example.app","key":"\ud800"}"#),
                .errorWithNullID(-32700)),
            BadInput(
                "arrays nested 10,000 deep",
                String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000), .errorWithNullID(-32700)),
            BadInput(
                "objects nested 10,000 deep",
                String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000),
                .errorWithNullID(-32700)),
            BadInput(
                "value nested 10,000 deep",
                set(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)),
                .errorWithNullID(-32700)),
            // Numbers.
            BadInput("huge integer value", set("123456789012345678901234567890", type: "integer"), .error(-32005)),
            BadInput("huge exponent value", set("1e999999"), .error(-32005)),
            BadInput("huge integer id", request("ping", "{}", id: "123456789012345678901234567890"), .result),
            BadInput("tiny exponent id", request("ping", "{}", id: "1e-999999"), .result),
            BadInput("NaN bare", set("NaN"), .errorWithNullID(-32700)),
            BadInput("nan lower case", set("nan"), .errorWithNullID(-32700)),
            BadInput("Infinity bare", set("Infinity"), .errorWithNullID(-32700)),
            BadInput("-Infinity bare", set("-Infinity"), .errorWithNullID(-32700)),
            BadInput("inf short", set("inf"), .errorWithNullID(-32700)),
            BadInput("+1 leading plus", set("+1"), .errorWithNullID(-32700)),
            BadInput("leading zeros", set("007"), .errorWithNullID(-32700)),
            BadInput("hex number", set("0x10"), .errorWithNullID(-32700)),
            BadInput("NaN wrapped, exact", set(#"{"$real":"NaN"}"#), .result),
            BadInput("nan wrapped, lower case", set(#"{"$real":"nan"}"#), .error(-32005)),
            BadInput("Inf wrapped, short", set(#"{"$real":"Inf"}"#), .error(-32005)),
            BadInput("NaN as a string with type real", set(#""NaN""#, type: "real"), .error(-32005)),
            BadInput("Infinity string with type integer", set(#""Infinity""#, type: "integer"), .error(-32005)),
            // Shapes and types.
            BadInput("null value", set("null"), .error(-32005)),
            BadInput(
                "wrong type: key is a number", request("get", #"{"container":"com.example.app","key":5}"#),
                .error(-32602)),
            BadInput("wrong type: reveal is a string", request("list", #"{"reveal":"yes"}"#), .error(-32602)),
            BadInput("wrong type: limit is a real", request("list", #"{"limit":2.5}"#), .error(-32602)),
            BadInput("missing param", request("get", #"{"container":"com.example.app"}"#), .error(-32602)),
            BadInput("missing value", request("set", #"{"container":"com.example.app","key":"k"}"#), .error(-32602)),
            BadInput(
                "extra param", request("get", #"{"container":"com.example.app","key":"user_name","colour":"red"}"#),
                .error(-32602)),
            BadInput("params is an array", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}"#, .error(-32602)),
            BadInput(
                "unknown top-level member", #"{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}"#, .error(-32600)),
            BadInput("jsonrpc 1.0", #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, .error(-32600)),
            BadInput("jsonrpc missing", #"{"id":1,"method":"ping"}"#, .error(-32600)),
            BadInput("method is a number", #"{"jsonrpc":"2.0","id":1,"method":42}"#, .error(-32600)),
            BadInput("unknown method", #"{"jsonrpc":"2.0","id":1,"method":"frobnicate"}"#, .error(-32601)),
            BadInput(
                "method 100 KB long",
                #"{"jsonrpc":"2.0","id":1,"method":""# + String(repeating: "m", count: 100_000) + #""}"#, .error(-32601)
            ),
            BadInput("a JSON string, not an object", #""ping""#, .errorWithNullID(-32600)),
            BadInput("a number", "42", .errorWithNullID(-32600)),
            BadInput(
                "batch array", #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
                .errorWithNullID(-32600)),
            BadInput("empty batch", "[]", .errorWithNullID(-32600)),
            // Ids of every JSON type.
            BadInput("id string", request("ping", "{}", id: #""abc""#), .result),
            BadInput("id negative real", request("ping", "{}", id: "-1.5"), .result),
            BadInput("id null", request("ping", "{}", id: "null"), .result),
            BadInput("id true", request("ping", "{}", id: "true"), .errorWithNullID(-32600)),
            BadInput("id object", request("ping", "{}", id: #"{"a":1}"#), .errorWithNullID(-32600)),
            BadInput("id array", request("ping", "{}", id: "[1]"), .errorWithNullID(-32600)),
            BadInput("no id: a notification", #"{"jsonrpc":"2.0","method":"ping"}"#, .noAnswer),
            BadInput("notification of an unknown method", #"{"jsonrpc":"2.0","method":"frobnicate"}"#, .noAnswer),
            BadInput(
                "CRLF line end", Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8) + [0x0D, 0x0A], .result),
            // Size.
            BadInput("line one byte over 1 MiB", String(repeating: " ", count: (1 << 20) + 1), .errorThenClose(-32006)),
            BadInput(
                "string of 10 MB", set(#"""# + String(repeating: "x", count: 10_000_000) + #"""#),
                .errorThenClose(-32006)),
            // Authentication.
            BadInput(
                "TCP request before hello", #"{"jsonrpc":"2.0","id":1,"method":"list"}"#, .error(-32001), overTCP: true),
            BadInput("TCP set before hello", set("1"), .error(-32001), overTCP: true),
            BadInput("TCP garbage before hello", "{", .errorWithNullID(-32700), overTCP: true),
        ]
        list.append(
            BadInput(
                "TCP hello with a wrong token", request("hello", #"{"token":"0000"}"#), .error(-32001), overTCP: true))
        return list
    }()
}
