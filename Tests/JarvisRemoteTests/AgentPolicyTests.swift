import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// Production, paging and the audit trail, checked with raw requests on both transports.
@Suite struct AgentPolicyTests {
    @Test(arguments: ["unix", "tcp"])
    func productionRefusesEditingAndRevealOnEveryTransport(transport: String) throws {
        let fixture = try AgentFixture(configuration: .production)
        let connection = try fixture.raw(transport == "unix" ? fixture.unix : try fixture.tcp())
        let hello = try connection.hello(token: transport == "tcp" ? fixture.agent.token : nil)
        let capabilities = hello?["result"]?["capabilities"]
        #expect(capabilities?["production"] == .bool(true))
        #expect(capabilities?["editing"] == .bool(false))
        #expect(capabilities?["reveal"] == .bool(false))
        let refusals: [(String, Int64)] = [
            (
                #"{"jsonrpc":"2.0","id":1,"method":"set","params":{"scanner":"memory","container":"app","key":"name","value":"Eve"}}"#,
                -32002
            ),
            (#"{"jsonrpc":"2.0","id":2,"method":"set","params":{"container":"app","key":"new","value":1}}"#, -32002),
            (
                #"{"jsonrpc":"2.0","id":3,"method":"delete","params":{"scanner":"memory","container":"app","key":"name"}}"#,
                -32002
            ),
            (
                #"{"jsonrpc":"2.0","id":4,"method":"delete","params":{"scanner":"vault","container":"keys","key":"api"}}"#,
                -32002
            ),
            (
                #"{"jsonrpc":"2.0","id":5,"method":"get","params":{"scanner":"vault","container":"keys","key":"api","reveal":true}}"#,
                -32001
            ),
            (#"{"jsonrpc":"2.0","id":6,"method":"list","params":{"reveal":true}}"#, -32001),
            (#"{"jsonrpc":"2.0","id":7,"method":"list","params":{"scanner":"vault","reveal":true,"limit":1}}"#, -32001),
        ]
        for (line, code) in refusals {
            #expect(try connection.ask(line)?.errorCode == code, "\(line)")
        }
        // Nothing changed, and the secret is masked in plain reads.
        #expect(fixture.memory.contents["app"]?["name"] == .string("Ada"))
        let secret = try connection.ask(
            #"{"jsonrpc":"2.0","id":8,"method":"get","params":{"scanner":"vault","container":"keys","key":"api"}}"#)
        #expect(secret?["result"]?["item"]?["value"] == nil)
        #expect(secret?["result"]?["item"]?["masked"] == .bool(true))
        #expect(!String(decoding: JSONWriter.bytes(secret ?? .null), as: UTF8.self).contains("sk-123456"))
        #expect(fixture.agent.auditLog.records().isEmpty)
    }

    @Test func listPagesWithACursorAndKeepsTheUnpagedForm() throws {
        var contents: [String: [String: PreferenceValue]] = [:]
        for container in 0..<5 {
            for key in 0..<500 { contents["c\(container)", default: [:]]["k\(key)"] = .integer(Int64(key)) }
        }
        let fixture = try AgentFixture(tcp: false, contents: contents)
        let connection = try fixture.raw(fixture.unix)
        let all = try connection.ask(#"{"jsonrpc":"2.0","id":1,"method":"list","params":{"scanner":"memory"}}"#)
        let everything = all?["result"]?["items"]?.arrayValue ?? []
        #expect(everything.count == 2500)
        #expect(all?["result"]?["nextCursor"] == nil)

        var pages: [[JSONValue]] = []
        var cursor: String?
        repeat {
            let cursorParam = cursor.map { #","cursor":"\#($0)""# } ?? ""
            let page = try connection.ask(
                #"{"jsonrpc":"2.0","id":2,"method":"list","params":{"scanner":"memory","limit":1000\#(cursorParam)}}"#)
            pages.append(page?["result"]?["items"]?.arrayValue ?? [])
            cursor = page?["result"]?["nextCursor"]?.stringValue
        } while cursor != nil && pages.count < 10
        #expect(pages.map(\.count) == [1000, 1000, 500])
        #expect(pages.flatMap { $0 } == everything)

        // A cursor names a position: a key added before it does not shift the next page.
        let first = try connection.ask(
            #"{"jsonrpc":"2.0","id":3,"method":"list","params":{"scanner":"memory","limit":2}}"#)
        let next = try #require(first?["result"]?["nextCursor"]?.stringValue)
        fixture.memory.update("c0", "a_first", to: .integer(0))
        let second = try connection.ask(
            #"{"jsonrpc":"2.0","id":4,"method":"list","params":{"scanner":"memory","limit":2,"cursor":"\#(next)"}}"#)
        #expect(second?["result"]?["items"]?.arrayValue?.first?["key"] == everything[2]["key"])

        #expect(
            try connection.ask(#"{"jsonrpc":"2.0","id":5,"method":"list","params":{"cursor":"garbage!"}}"#)?.errorCode
                == -32602)
        #expect(
            try connection.ask(#"{"jsonrpc":"2.0","id":6,"method":"list","params":{"limit":0}}"#)?.errorCode == -32602)
        #expect(
            try connection.ask(#"{"jsonrpc":"2.0","id":7,"method":"list","params":{"limit":"5"}}"#)?.errorCode == -32602
        )

        let client = try JarvisClient(endpoint: fixture.unix)
        #expect(try client.list(scanner: "memory").items.count == 2501)
    }

    @Test func setsDeletesAndRevealsAreAudited() throws {
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        let fixture = try AgentFixture(configuration: configuration)
        let heard = Locked<[AuditRecord]>([])
        fixture.agent.onAudit = { record in heard.withLock { $0.append(record) } }

        let before = try fixture.agent.hub.get(PreferenceAddress(scanner: "memory", container: "app", key: "name"))
        let tcpClient = try JarvisClient(
            endpoint: try fixture.tcp(), clientName: "remote-tool", token: fixture.agent.token)
        let stored = try tcpClient.set(
            PreferenceAddress(scanner: "memory", container: "app", key: "name"), to: .string("Grace"))
        let unix = try fixture.raw(fixture.unix)
        _ = try unix.ask(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"socat"}}"#)
        let removed = try unix.ask(
            #"{"jsonrpc":"2.0","id":2,"method":"delete","params":{"container":"app","key":"count"}}"#)
        #expect(removed?["result"] != nil)
        let revealed = try unix.ask(
            #"{"jsonrpc":"2.0","id":3,"method":"get","params":{"scanner":"vault","container":"keys","key":"api","reveal":true}}"#
        )
        #expect(revealed?["result"]?["item"]?["value"] == .string("sk-123456"))
        // Refused writes and plain reads leave no record.
        _ = try unix.ask(
            #"{"jsonrpc":"2.0","id":4,"method":"set","params":{"container":"app","key":"name","value":"x","expectedRevision":"0000000000000000"}}"#
        )
        _ = try unix.ask(
            #"{"jsonrpc":"2.0","id":5,"method":"get","params":{"scanner":"memory","container":"app","key":"name","reveal":true}}"#
        )

        let records = fixture.agent.auditLog.records()
        #expect(records.map(\.action) == [.set, .delete, .reveal])
        #expect(records.map(\.sequence) == [1, 2, 3])
        #expect(records[0].client.transport == "tcp" && records[0].client.name == "remote-tool")
        #expect(records[0].client.peer.hasPrefix("127.0.0.1:"))
        #expect(records[0].oldRevision == before.revision && records[0].newRevision == stored.revision)
        #expect(records[1].client == AuditRecord.Client(transport: "unix", peer: records[1].client.peer, name: "socat"))
        #expect(records[1].address == PreferenceAddress(scanner: "memory", container: "app", key: "count"))
        #expect(records[1].newRevision == nil && records[1].oldRevision != nil)
        #expect(records[2].address.scanner == "vault")
        #expect(heard.current == records)

        let history = try unix.ask(#"{"jsonrpc":"2.0","id":6,"method":"history","params":{"limit":2}}"#)
        let lines = history?["result"]?["records"]?.arrayValue ?? []
        #expect(lines.map { $0["action"]?.stringValue } == ["delete", "reveal"])
        #expect(lines.first?["client"] == .string("socat"))
        #expect(history?["result"]?["total"] == .number(JSONNumber(3)))
        let onlySets = try unix.ask(
            #"{"jsonrpc":"2.0","id":7,"method":"history","params":{"action":"set","key":"na*"}}"#)
        #expect(onlySets?["result"]?["records"]?.arrayValue?.count == 1)
        #expect(
            try unix.ask(#"{"jsonrpc":"2.0","id":8,"method":"history","params":{"limit":100000}}"#)?.errorCode == -32602
        )
        #expect(
            try unix.ask(#"{"jsonrpc":"2.0","id":9,"method":"history","params":{"colour":"red"}}"#)?.errorCode == -32602
        )
        // Over TCP, history needs the token like everything else.
        let stranger = try fixture.raw(try fixture.tcp())
        #expect(try stranger.ask(#"{"jsonrpc":"2.0","id":1,"method":"history"}"#)?.errorCode == -32001)
    }

    @Test func tooManyClientsGetAClearRefusal() throws {
        let fixture = try AgentFixture { $0.maxConnections = 2 }
        let first = try fixture.raw(fixture.unix)
        let second = try fixture.raw(fixture.unix)
        #expect(try first.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?["result"] != nil)
        #expect(try second.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?["result"] != nil)
        let third = try fixture.raw(fixture.unix)
        let refusal = try third.next()
        #expect(refusal?.errorCode == -32006)
        #expect(refusal?["error"]?["message"]?.stringValue?.contains("at most 2 clients") == true)
        #expect(try third.next() == nil)
        // TCP has its own slots, so local debugging is never locked out by remote clients.
        let remote = try fixture.raw(try fixture.tcp())
        #expect(try remote.hello(token: fixture.agent.token)?["result"] != nil)
    }

    @Test func idleTCPClientsAreClosed() throws {
        let fixture = try AgentFixture { $0.tcpIdleTimeout = .milliseconds(200) }
        let remote = try fixture.raw(try fixture.tcp())
        #expect(try remote.hello(token: fixture.agent.token)?["result"] != nil)
        // Waits well past the timeout; nil means the agent hung up.
        #expect(try remote.next() == nil)
        let local = try fixture.raw(fixture.unix)
        #expect(try local.ask(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?["result"] != nil)
    }
}
