import Foundation
import JarvisCore
import JarvisScanners
import Testing

@testable import JarvisRemote

/// A revealing `list` is streamed like any other (never built whole for the client), and each
/// secret is audited as its chunk is made: a client that stops reading after the first chunk
/// caused reveal records for that chunk only.
@Suite struct RevealingListStreamTests {
    @Test func aRevealingListingAuditsEachChunkAsItIsMade() throws {
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        let hub = JarvisHub(configuration: configuration)
        var secrets: [String: PreferenceValue] = [:]
        for index in 0..<5_000 { secrets[String(format: "account_%05d", index)] = .string(String(repeating: "s", count: 100)) }
        hub.register(MemoryScanner(id: "vault", isSecret: true, contents: ["github": secrets]))
        let audit = AgentAudit()
        let reveals = Locked(0)
        audit.onRecord = { record in if record.action == .reveal { reveals.withLock { $0 += 1 } } }
        let service = AgentService(hub: hub, identity: AgentIdentity(name: "t"), maxLineLength: 1 << 20, audit: audit)
        let session = AgentSessionState(transport: .unix, peer: "test")
        let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"list","params":{"reveal":true}}"#.utf8)
        guard case .stream(var producer) = try #require(service.answer(to: line, session: session)) else {
            Issue.record("a revealing list was answered whole")
            return
        }
        var bytes: [UInt8] = []
        _ = producer.produce(into: &bytes, size: 1 << 16)
        let afterOneChunk = reveals.current
        #expect(afterOneChunk > 0 && afterOneChunk < 5_000, "\(afterOneChunk) reveals after one chunk")
        while !producer.produce(into: &bytes, size: 1 << 16) {}
        #expect(reveals.current == 5_000)
        let answer = try JSONParser.parse(bytes)
        #expect(answer["result"]?["items"]?.arrayValue?.count == 5_000)
    }
}
