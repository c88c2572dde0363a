import Foundation
import JarvisCore
import JarvisScanners
import Testing

@testable import JarvisRemote

/// Issue 27 item 2 at its cost: a value larger than the whole output budget is refused before
/// its answer is made. 48 clients asking a 15 MiB value once kept every work thread writing
/// 15 MiB answers that the connection then refused, and another client's small `get` waited
/// for its timeout behind them.
@Suite struct UnsendableAnswerTests {
    static let limit = 1 << 20

    static func service() -> AgentService {
        let hub = JarvisHub()
        let big = String(repeating: "a", count: 3 << 20)
        let many = PreferenceValue.array(Array(repeating: .string(String(repeating: "b", count: 1024)), count: 2048))
        hub.register(
            MemoryScanner(id: "m", contents: ["app": ["blob": .string(big), "list": many, "small": 1, "nested": ["blob": .string(big)]]]))
        return AgentService(hub: hub, identity: AgentIdentity(name: "t"), maxLineLength: 1 << 20, maxAnswerBytes: limit)
    }

    @Test(arguments: [
        #""key":"blob""#, #""key":"list""#, #""key":"nested""#, #""key":"nested","pointer":"/blob""#,
    ])
    func aValueLargerThanTheBudgetIsRefusedWithoutBeingWritten(_ place: String) throws {
        let service = Self.service()
        let session = AgentSessionState(transport: .unix, peer: "test")
        let line = #"{"jsonrpc":"2.0","id":7,"method":"get","params":{"scanner":"m","container":"app",\#(place)}}"#
        let answer = try #require(service.respond(to: Array(line.utf8), session: session))
        #expect(answer.count < 4096, "an answer of \(answer.count) bytes was made")
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.contains(#""code":-32006"#) && text.contains("at least") && text.contains("pointer"), "\(text)")
        // The flat path the loop takes for an item held in memory refuses it as cheaply.
        if let fromMemory = service.answerFlatGetFromMemory(Array(line.utf8), checkpoint: .none) {
            #expect(fromMemory.count < 4096)
        }
    }

    @Test func aValueWithinTheBudgetIsServed() throws {
        let service = Self.service()
        let session = AgentSessionState(transport: .unix, peer: "test")
        let line = #"{"jsonrpc":"2.0","id":8,"method":"get","params":{"scanner":"m","container":"app","key":"small"}}"#
        let answer = try #require(service.respond(to: Array(line.utf8), session: session))
        #expect(String(decoding: answer, as: UTF8.self).contains(#""value":1"#))
    }

    @Test func theLowerBoundNeverExceedsTheWrittenSize() {
        let values: [PreferenceValue] = [
            .string(""), .string("é\u{2028}\"\\"), .data(Data([1, 2, 3, 4])), .integer(-12), .real(0.5), .boolean(true),
            .date(Date(timeIntervalSince1970: 0)), .array([]), .dictionary([:]),
            .dictionary(["a": .array([.string("x"), .dictionary(["b": .data(Data(count: 10))])])]),
        ]
        for value in values {
            let written = Array(JSONWriter.string(value.json).utf8).count
            #expect(value.minimumJSONBytes(countingPast: .max) <= written, "\(value)")
        }
    }
}
