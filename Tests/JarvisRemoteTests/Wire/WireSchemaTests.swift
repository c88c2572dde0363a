import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// Every struct of the wire schema reads the lines of docs/PROTOCOL.md and writes them back
/// byte for byte (the document's `…` filled in with concrete values).
@Suite struct WireSchemaTests {
    // MARK: - Helpers

    /// Decodes the result of an answer line as `T`, encodes it again and compares the bytes.
    private func roundTripResult<T: WireMessage>(_ line: String, as type: T.Type) throws -> T {
        guard case .result(let id, let result) = try RPCResponse.decode(Array(line.utf8)) else {
            throw JarvisError(.storage, "not a result: \(line)")
        }
        let decoded = try T(json: result)
        let encoded = String(decoding: RPCResponse.success(id: id, result: decoded.json), as: UTF8.self)
        #expect(encoded == line)
        return decoded
    }

    /// Decodes the params of a request line with the agent's decoder, encodes them again with
    /// the client's encoder and compares the bytes.
    private func roundTripParams<T: WireParams>(
        _ line: String, _ decode: (JSONObject) throws(RPCError) -> T
    ) throws -> T {
        let request = try RPCRequest.decode(Array(line.utf8))
        #expect(request.method == T.method)
        let decoded = try decode(request.params)
        let encoded = RPCRequest(id: request.id, method: T.method, params: decoded.json).line
        #expect(String(decoding: encoded, as: UTF8.self) == line)
        return decoded
    }

    private let revision = "8c5b3e2a1f9d0c47"

    // MARK: - hello, ping, scanners, containers

    @Test func hello() throws {
        let params = try roundTripParams(
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"socat","protocolVersion":"1.0"}}"#,
            Wire.HelloParams.init(params:))
        #expect(params.client == "socat" && params.token == nil)
        let withToken = try roundTripParams(
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"socat","protocolVersion":"1.0","token":"3482b0a9"}}"#,
            Wire.HelloParams.init(params:))
        #expect(withToken.token == "3482b0a9")
        let result = try roundTripResult(
            #"{"jsonrpc":"2.0","id":1,"result":{"protocol":"jarvis","protocolVersion":"1.0","agent":"jarvis-demo","pid":4242,"platform":"Linux","capabilities":{"editing":true,"reveal":false,"production":false,"maxLineLength":1048576,"tcp":false,"auth":"none","history":true,"paging":true,"requestTimeoutMs":15000,"changes":true},"scanners":["defaults"]}}"#,
            as: Wire.HelloResult.self)
        #expect(result.agent == "jarvis-demo" && result.pid == 4242 && result.scanners == ["defaults"])
        #expect(result.capabilities.editing && !result.capabilities.reveal)
        #expect(result.capabilities.maxLineLength == 1_048_576 && result.capabilities.auth == "none")
        #expect(result.capabilities.requestTimeout == .seconds(15) && result.capabilities.changes)
    }

    @Test func pingScannersAndContainers() throws {
        #expect(try roundTripResult(#"{"jsonrpc":"2.0","id":2,"result":{"pong":true}}"#, as: Wire.PingResult.self).pong)
        let scanners = try roundTripResult(
            #"{"jsonrpc":"2.0","id":3,"result":{"scanners":[{"id":"defaults","name":"Defaults suites","secret":false,"writable":true,"available":true,"types":["string","integer","real","boolean","date","data","array","dictionary"]},{"id":"secrets","name":"Secrets","secret":true,"writable":false,"available":false,"reason":"no D-Bus session bus","types":["string","data"]},{"id":"flags","name":"flags","secret":false,"writable":true,"available":true}]}}"#,
            as: Wire.ScannersResult.self)
        #expect(scanners.scanners.map(\.id) == ["defaults", "secrets", "flags"])
        #expect(scanners.scanners[1].reason == "no D-Bus session bus" && scanners.scanners[1].secret)
        #expect(
            scanners.scanners[0].types == PreferenceType.allCases && scanners.scanners[1].types == [.string, .data])
        // Absent: a scanner that does not say (or an older agent) takes every type.
        #expect(scanners.scanners[2].types == nil)
        _ = try roundTripParams(
            #"{"jsonrpc":"2.0","id":4,"method":"containers","params":{"scanner":"defaults"}}"#,
            Wire.ContainersParams.init(params:))
        let containers = try roundTripResult(
            #"{"jsonrpc":"2.0","id":4,"result":{"containers":[{"scanner":"defaults","name":"com.example.demo.cloud","writable":true},{"scanner":"secrets","name":"secret-service","writable":false,"problem":"no D-Bus session bus …"}]}}"#,
            as: Wire.ContainersResult.self)
        #expect(containers.containers[1].problem == "no D-Bus session bus …")
    }

    // MARK: - list

    @Test func listAndPaging() throws {
        let params = try roundTripParams(
            #"{"jsonrpc":"2.0","id":5,"method":"list","params":{"container":"com.example.demo.prefs","key":"l*"}}"#,
            Wire.ListParams.init(params:))
        #expect(params.container == "com.example.demo.prefs" && params.key == "l*" && params.limit == nil)
        let paged = try roundTripParams(
            #"{"jsonrpc":"2.0","id":5,"method":"list","params":{"container":"com.example.demo.*","limit":2}}"#,
            Wire.ListParams.init(params:))
        #expect(paged.limit == 2)
        let orphans = try roundTripParams(
            #"{"jsonrpc":"2.0","id":23,"method":"list","params":{"container":"com.example.demo.prefs","undeclared":true,"limit":2}}"#,
            Wire.ListParams.init(params:))
        #expect(orphans.undeclared && orphans.limit == 2)
        let export = try roundTripParams(
            #"{"jsonrpc":"2.0","id":26,"method":"list","params":{"scanner":"secrets","reveal":true,"export":true}}"#,
            Wire.ListParams.init(params:))
        #expect(export.export && export.reveal && !paged.export)
        let page = try roundTripResult(
            #"{"jsonrpc":"2.0","id":5,"result":{"items":[{"scanner":"defaults","container":"com.example.demo.prefs","key":"last_open","type":"date","value":{"$date":"2026-11-21T10:00:00.125Z"},"revision":"\#(revision)"},{"scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","type":"integer","value":42,"revision":"\#(revision)"}],"problems":[]}}"#,
            as: Wire.ListPage.self)
        #expect(page.items.map(\.address.key) == ["last_open", "launch_count"])
        #expect(page.items[1].value == .integer(42) && page.nextCursor == nil)
        let next = try roundTripResult(
            #"{"jsonrpc":"2.0","id":5,"result":{"items":[],"problems":[],"nextCursor":"WyJkZWZhdWx0cyIsImNvbS5leGFtcGxlLmRlbW8uY2xvdWQiLCJwcmlvcml0aWVzIl0"}}"#,
            as: Wire.ListPage.self)
        #expect(next.nextCursor?.hasPrefix("WyJk") == true)
    }

    @Test func listParamsRefuseOutOfRangeLimits() {
        #expect(throws: RPCError.self) { try Wire.ListParams(params: ["limit": 0]) }
        #expect(throws: RPCError.self) { try Wire.ListParams(params: ["limt": 5]) }
    }

    // MARK: - get, set, delete, reset

    @Test func getSetAndDelete() throws {
        let get = try roundTripParams(
            #"{"jsonrpc":"2.0","id":16,"method":"get","params":{"scanner":"files","container":"app.json","key":"server","pointer":"/port"}}"#,
            Wire.GetParams.init(params:))
        #expect(get.place.pointer?.tokens == ["port"] && get.place.scanner == "files")
        let reveal = try roundTripParams(
            #"{"jsonrpc":"2.0","id":13,"method":"get","params":{"scanner":"secrets","container":"secrets","key":"db_password","reveal":true}}"#,
            Wire.GetParams.init(params:))
        #expect(reveal.reveal)
        let profile = try roundTripResult(
            #"{"jsonrpc":"2.0","id":6,"result":{"item":{"scanner":"defaults","container":"com.example.demo.prefs","key":"profile","type":"dictionary","value":{"created":{"$date":"2023-11-14T22:13:20Z"},"display_name":"Ada","limits":{"daily":3,"ratio":1.5},"tags":["swift","math"]},"revision":"\#(revision)"}}}"#,
            as: Wire.ItemResult.self)
        #expect(profile.item.type == .dictionary)
        let pointed = try roundTripResult(
            #"{"jsonrpc":"2.0","id":16,"result":{"item":{"scanner":"files","container":"app.json","key":"server","type":"integer","value":8080,"revision":"\#(revision)","pointer":"/port"}}}"#,
            as: Wire.ItemResult.self)
        #expect(pointed.item.pointer?.description == "/port")
        let masked = try roundTripResult(
            #"{"jsonrpc":"2.0","id":12,"result":{"item":{"scanner":"secrets","container":"secrets","key":"db_password","type":"string","revision":"\#(revision)","masked":true,"length":28,"fingerprint":"74dbab1b"}}}"#,
            as: Wire.ItemResult.self)
        #expect(masked.item.mask?.length == 28 && masked.item.value == nil)

        let setLines = [
            #"{"jsonrpc":"2.0","id":7,"method":"set","params":{"scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","type":"integer","value":5}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"set","params":{"container":"com.example.demo.prefs","key":"last_open","type":"date","value":"2024-01-15T10:00:00Z"}}"#,
            #"{"jsonrpc":"2.0","id":17,"method":"set","params":{"container":"com.example.demo.prefs","key":"profile","pointer":"/tags/0","value":"rust"}}"#,
            #"{"jsonrpc":"2.0","id":18,"method":"set","params":{"scanner":"files","container":"app.json","key":"server","pointer":"/port","type":"integer","value":9090}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"set","params":{"container":"com.example.demo.prefs","key":"launch_count","value":6,"expectedRevision":"0000000000000000"}}"#,
        ]
        for line in setLines { _ = try roundTripParams(line, Wire.SetParams.init(params:)) }
        let date = try roundTripParams(setLines[1], Wire.SetParams.init(params:))
        #expect(try date.decodedValue().type == .date)
        let guarded = try roundTripParams(setLines[4], Wire.SetParams.init(params:))
        #expect(guarded.expectedRevision == .absent && guarded.type == nil)
        let change = try roundTripParams(
            #"{"jsonrpc":"2.0","id":25,"method":"set","params":{"container":"app.json","key":"theme","value":"dark","expectedRevision":"d52b68f67d5a5795","change":"import-5f1c9a3e-0b7d-4c1a-9e2f-6a8b7c9d0e1f"}}"#,
            Wire.SetParams.init(params:))
        #expect(change.change.change?.hasPrefix("import-") == true && !change.change.rollback)
        let rollback = try roundTripParams(
            #"{"jsonrpc":"2.0","id":26,"method":"set","params":{"container":"app.json","key":"theme","value":"light","expectedRevision":"9cf7efc4b7ad6e44","change":"import-5f1c9a3e-0b7d-4c1a-9e2f-6a8b7c9d0e1f","rollback":true}}"#,
            Wire.SetParams.init(params:))
        #expect(rollback.change.rollback)
        #expect(
            String(
                decoding: RPCRequest(
                    id: 7, method: "set",
                    params: Wire.SetParams(
                        Wire.Place(scanner: "defaults", container: "com.example.demo.prefs", key: "launch_count"),
                        value: .integer(5)
                    ).json
                ).line, as: UTF8.self) == setLines[0])

        let delete = try roundTripParams(
            #"{"jsonrpc":"2.0","id":20,"method":"delete","params":{"container":"com.example.demo.prefs","key":"profile","pointer":"/tags/1"}}"#
        ) { (raw) throws(RPCError) in
            try Wire.DeleteParams(WireFields(params: raw, method: .delete, allowed: ["container", "key", "pointer"]))
        }
        #expect(delete.place.pointer?.tokens == ["tags", "1"])
        _ = try roundTripResult(
            #"{"jsonrpc":"2.0","id":11,"result":{"item":{"scanner":"defaults","container":"com.example.demo.prefs","key":"user_name","type":"string","value":"Ada Lovelace","revision":"\#(revision)"}}}"#,
            as: Wire.ItemResult.self)
    }

    @Test func bulkDeleteAndReset() throws {
        let bulk = try roundTripParams(
            #"{"jsonrpc":"2.0","id":21,"method":"delete","params":{"container":"com.example.demo.cloud","match":"workout_*","dryRun":true}}"#
        ) { (raw) throws(RPCError) in
            try Wire.BulkDeleteParams(
                WireFields(params: raw, method: .delete, allowed: ["container", "match", "dryRun"]))
        }
        #expect(bulk.dryRun && bulk.scanner == nil && bulk.match == "workout_*" && !bulk.undeclared)
        let orphans = try roundTripParams(
            #"{"jsonrpc":"2.0","id":24,"method":"delete","params":{"container":"com.example.demo.prefs","undeclared":true,"dryRun":true}}"#
        ) { (raw) throws(RPCError) in
            try Wire.BulkDeleteParams(
                WireFields(params: raw, method: .delete, allowed: ["container", "undeclared", "dryRun"]))
        }
        #expect(orphans.undeclared && orphans.match == nil)
        let removedOrphans = try roundTripResult(
            #"{"jsonrpc":"2.0","id":24,"result":{"scanner":"defaults","container":"com.example.demo.prefs","dryRun":true,"count":8,"keys":["avatar_thumbnail","coach_review_config","last_open","onboarding_done","profile","recent_searches","user_name","volume"],"undeclared":true}}"#,
            as: Wire.BulkDeleteResult.self)
        #expect(removedOrphans.undeclared && removedOrphans.keys.count == 8)
        #expect(throws: RPCError.self) {
            try Wire.BulkDeleteParams(
                WireFields(
                    params: ["container": "c", "match": "*", "undeclared": true], method: .delete,
                    allowed: ["container", "match", "undeclared"]))
        }
        let result = try roundTripResult(
            #"{"jsonrpc":"2.0","id":21,"result":{"scanner":"defaults","container":"com.example.demo.cloud","match":"workout_*","dryRun":true,"count":3,"keys":["workout_2024-01-15","workout_2024-01-16","workout_2024-01-18"]}}"#,
            as: Wire.BulkDeleteResult.self)
        #expect(result.keys.count == 3)
        _ = try roundTripParams(
            #"{"jsonrpc":"2.0","id":22,"method":"reset","params":{"container":"com.example.demo.prefs","key":"theme"}}"#,
            Wire.ResetParams.init(params:))
        let reset = try roundTripResult(
            #"{"jsonrpc":"2.0","id":22,"result":{"removed":{"scanner":"defaults","container":"com.example.demo.prefs","key":"theme","type":"string","value":"dark","revision":"\#(revision)","default":"system","description":"Colour scheme of the app","allowed":["light","dark","system"]},"item":{"scanner":"defaults","container":"com.example.demo.prefs","key":"theme","type":"string","revision":"0000000000000000","unset":true,"default":"system","description":"Colour scheme of the app","allowed":["light","dark","system"]}}}"#,
            as: Wire.ResetResult.self)
        #expect(reset.removed?.value == .string("dark") && reset.item?.catalog?.isUnset == true)
        let nothing = try roundTripResult(#"{"jsonrpc":"2.0","id":23,"result":{}}"#, as: Wire.ResetResult.self)
        #expect(nothing.removed == nil && nothing.item == nil)
    }

    // MARK: - history

    @Test func history() throws {
        let params = try roundTripParams(
            #"{"jsonrpc":"2.0","id":13,"method":"history","params":{"limit":1}}"#
        ) { (raw) throws(RPCError) in try Wire.HistoryParams(params: raw, capacity: 1000) }
        #expect(params.limit == 1)
        let page = try roundTripResult(
            #"{"jsonrpc":"2.0","id":13,"result":{"records":[{"sequence":4,"time":"2026-11-21T10:02:00.125Z","action":"set","transport":"tcp","peer":"127.0.0.1:53232","client":"jarvis-cli","scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","oldRevision":"21fdd47119083f4f","newRevision":"afe8d7da2cf83782"}],"total":4,"capacity":1000}}"#,
            as: Wire.HistoryPage.self)
        #expect(page.records.first?.client == "jarvis-cli" && page.total == 4 && page.capacity == 1000)
        let created = try roundTripResult(
            #"{"jsonrpc":"2.0","id":14,"result":{"records":[{"sequence":1,"time":"2026-11-21T10:00:00Z","action":"set","transport":"unix","peer":"uid 1000","scanner":"defaults","container":"c","key":"k","newRevision":"afe8d7da2cf83782"}],"total":1,"capacity":1000}}"#,
            as: Wire.HistoryPage.self)
        #expect(created.records.first?.oldRevision == nil && created.records.first?.client == nil)
        let export = try roundTripResult(
            #"{"jsonrpc":"2.0","id":15,"result":{"records":[{"sequence":9,"time":"2026-11-21T10:05:00Z","action":"export","transport":"unix","peer":"pid 4711 uid 1000","client":"jarvis-cli","scanner":"*","container":"*","key":"*","count":2}],"total":9,"capacity":1000}}"#,
            as: Wire.HistoryPage.self)
        #expect(export.records.first?.action == .export && export.records.first?.count == 2)
        #expect(created.records.first?.count == nil)
    }

    // MARK: - journal, undo, redo, restore

    @Test func journalUndoAndRestore() throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":40,"method":"journal","params":{"limit":1}}"#,
            #"{"jsonrpc":"2.0","id":40,"result":{"entries":[{"id":7,"time":"2026-11-28T10:00:00.125Z","action":"set","scanner":"files","container":"app.json","key":"theme","before":{"type":"string","value":"dark"},"after":{"type":"string","value":"light"},"beforeRevision":"9cf7efc4b7ad6e44","afterRevision":"d52b68f67d5a5795","transport":"unix","client":"jarvis-cli","undoable":true}],"bytes":512,"budget":16777216}}"#,
            #"{"jsonrpc":"2.0","id":41,"method":"undo"}"#,
            #"{"jsonrpc":"2.0","id":41,"result":{"undone":{"id":7,"time":"2026-11-28T10:00:00.125Z","action":"set","scanner":"files","container":"app.json","key":"theme","before":{"type":"string","value":"dark"},"after":{"type":"string","value":"light"},"beforeRevision":"9cf7efc4b7ad6e44","afterRevision":"d52b68f67d5a5795","transport":"unix","client":"jarvis-cli","undoable":false,"reason":"taken back by entry 8","undoneBy":8},"entry":{"id":8,"time":"2026-11-28T10:00:05Z","action":"undo","scanner":"files","container":"app.json","key":"theme","before":{"type":"string","value":"light"},"after":{"type":"string","value":"dark"},"beforeRevision":"d52b68f67d5a5795","afterRevision":"9cf7efc4b7ad6e44","transport":"unix","client":"jarvis-cli","undoable":true,"reverts":7},"dryRun":false,"restore":{"type":"string","value":"dark"},"item":{"scanner":"files","container":"app.json","key":"theme","type":"string","value":"dark","revision":"9cf7efc4b7ad6e44"}}}"#,
            #"{"jsonrpc":"2.0","id":42,"error":{"code":-32004,"message":"'theme' in 'app.json' changed since entry 7 (which left revision d52b68f67d5a5795); nothing was written. The undo would restore \"dark\"; it holds \"blue\" now (revision 3c9d2b1a0f8e7d6c). To write anyway, send forceAt 3c9d2b1a0f8e7d6c (jarvis undo 7 --force-at 3c9d2b1a0f8e7d6c)","data":{"code":"conflict","entry":7,"currentRevision":"3c9d2b1a0f8e7d6c","restore":{"type":"string","value":"dark"},"current":{"scanner":"files","container":"app.json","key":"theme","type":"string","value":"blue","revision":"3c9d2b1a0f8e7d6c"}}}}"#,
            #"{"jsonrpc":"2.0","id":43,"method":"restore","params":{"toEntry":6,"dryRun":true}}"#,
            #"{"jsonrpc":"2.0","id":43,"result":{"dryRun":true,"changes":[{"kind":"changed","scanner":"files","container":"app.json","key":"theme","now":{"type":"string","value":"light"},"then":{"type":"string","value":"dark"}}]}}"#,
        ]
        let journal = try roundTripParams(lines[0]) { (raw) throws(RPCError) in try Wire.JournalParams(params: raw) }
        #expect(journal.limit == 1)
        let page = try roundTripResult(lines[1], as: Wire.JournalPage.self)
        #expect(page.entries.first?.before?.value == .string("dark") && page.entries.first?.undoable == true)
        let undo = try roundTripParams(lines[2]) { (raw) throws(RPCError) in try Wire.UndoParams(params: raw) }
        #expect(undo.id == nil && !undo.dryRun)
        let undone = try roundTripResult(lines[3], as: Wire.UndoResult.self)
        #expect(undone.undone.undoneBy == 8 && undone.entry?.reverts == 7 && undone.item?.value == .string("dark"))
        guard case .error(_, let conflict) = try RPCResponse.decode(Array(lines[4].utf8)) else {
            Issue.record("not an error")
            return
        }
        #expect(RPCError(try Wire.ErrorObject(json: conflict.json)).jarvisError.code == .conflict)
        let restore = try roundTripParams(lines[5]) { (raw) throws(RPCError) in try Wire.RestoreParams(params: raw) }
        #expect(restore.toEntry == 6 && restore.dryRun)
        let restored = try roundTripResult(lines[6], as: Wire.RestoreResult.self)
        #expect(restored.changes.first?.then?.value == .string("dark"))
        // Exactly as docs/PROTOCOL.md shows them.
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../docs/PROTOCOL.md"), encoding: .utf8)
        for line in lines { #expect(document.contains("\n" + line + "\n"), "PROTOCOL.md lacks \(line)") }
        // A restore names one point, not both or neither.
        #expect(throws: RPCError.self) {
            try Wire.RestoreParams(params: ["toEntry": 1, "toTime": "2026-11-28T10:00:00Z"])
        }
        #expect(throws: RPCError.self) { try Wire.RestoreParams(params: [:]) }
        #expect(throws: RPCError.self) { try Wire.UndoParams(params: ["id": 0]) }
    }

    @Test func checkAndItsFindings() throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":50,"method":"check","params":{"container":"app.json"}}"#,
            #"{"jsonrpc":"2.0","id":50,"result":{"findings":[{"kind":"equalsDefault","scanner":"files","container":"app.json","key":"debug","message":"stored with its default value: storing it changes nothing (jarvis reset removes it)"}],"catalog":true}}"#,
        ]
        let params = try roundTripParams(lines[0]) { (raw) throws(RPCError) in try Wire.CheckParams(params: raw) }
        #expect(params.container == "app.json")
        let result = try roundTripResult(lines[1], as: Wire.CheckResult.self)
        #expect(result.findings.first?.finding.kind == .equalsDefault && result.findings.first?.finding.key == "debug")
        #expect(result.catalog == true)
        // An agent older than `catalog` leaves it out; a host without a catalog says false.
        #expect(try Wire.CheckResult(json: ["findings": .array([])]).catalog == nil)
        #expect(Wire.CheckResult([], catalog: false).nothingFound.contains("no key catalog"))
        #expect(Wire.CheckResult([], catalog: nil).nothingFound.contains("as the key catalog says"))
        #expect(throws: RPCError.self) { try Wire.CheckParams(params: ["key": "x"]) }
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../docs/PROTOCOL.md"), encoding: .utf8)
        for line in lines { #expect(document.contains("\n" + line + "\n"), "PROTOCOL.md lacks \(line)") }
    }

    // MARK: - watch

    @Test func watchUnwatchAndChanged() throws {
        _ = try roundTripParams(
            #"{"jsonrpc":"2.0","id":20,"method":"watch","params":{"container":"com.example.demo.*"}}"#,
            Wire.WatchParams.init(params:))
        let resume = try roundTripParams(
            #"{"jsonrpc":"2.0","id":22,"method":"watch","params":{"container":"com.example.demo.*","since":1}}"#,
            Wire.WatchParams.init(params:))
        #expect(resume.since == 1)
        let started = try roundTripResult(
            #"{"jsonrpc":"2.0","id":20,"result":{"subscription":"w1","sequence":0}}"#, as: Wire.WatchResult.self)
        #expect(started.id == "w1" && started.resumed == nil)
        let resumed = try roundTripResult(
            #"{"jsonrpc":"2.0","id":22,"result":{"subscription":"w2","sequence":3,"resumed":true}}"#,
            as: Wire.WatchResult.self)
        #expect(resumed.resumed == true)
        _ = try roundTripParams(
            #"{"jsonrpc":"2.0","id":21,"method":"unwatch","params":{"subscription":"w1"}}"#,
            Wire.UnwatchParams.init(params:))
        _ = try roundTripResult(#"{"jsonrpc":"2.0","id":21,"result":{"unwatched":"w1"}}"#, as: Wire.UnwatchResult.self)

        let line =
            #"{"jsonrpc":"2.0","method":"changed","params":{"subscription":"w1","sequence":1,"time":"2026-11-21T10:00:01.250Z","changes":[{"kind":"updated","scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","item":{"scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","type":"integer","value":43,"revision":"\#(revision)"},"old":{"scanner":"defaults","container":"com.example.demo.prefs","key":"launch_count","type":"integer","value":42,"revision":"21fdd47119083f4f"}},{"kind":"removed","scanner":"defaults","container":"com.example.demo.prefs","key":"gone","old":{"scanner":"defaults","container":"com.example.demo.prefs","key":"gone","type":"boolean","value":true,"revision":"21fdd47119083f4f"}}]}}"#
        guard case .notification(let method, let params) = try RPCResponse.decode(Array(line.utf8)) else {
            Issue.record("not a notification")
            return
        }
        #expect(method == ChangeNotification.method)
        let changed = try ChangeNotification(json: .object(params))
        #expect(changed.changes.map(\.kind) == ["updated", "removed"])
        #expect(changed.changes[0].old?.value == .integer(42) && changed.changes[1].item == nil)
        let encoded = RPCResponse.notification(method: ChangeNotification.method, params: changed.params)
        #expect(String(decoding: encoded, as: UTF8.self) == line)
    }

    @Test func aContainerUnreadableAndReadableAgain() throws {
        let lines = [
            #"{"jsonrpc":"2.0","method":"changed","params":{"subscription":"w1","sequence":1,"time":"2026-11-27T04:05:31.813Z","changes":[],"container":{"kind":"unreadable","scanner":"files","name":"app.json","problem":"not valid JSON: line 1, column 15: a comma must separate members: expected ',' or '}' after a member, found '\"'; fix the file (Jarvis never writes over it)"}}}"#,
            #"{"jsonrpc":"2.0","method":"changed","params":{"subscription":"w1","sequence":2,"time":"2026-11-27T04:05:32.394Z","changes":[{"kind":"updated","scanner":"files","container":"app.json","key":"port","item":{"scanner":"files","container":"app.json","key":"port","type":"integer","value":8081,"revision":"15e04a806bc0e6f1"},"old":{"scanner":"files","container":"app.json","key":"port","type":"integer","value":8080,"revision":"3f3b9d95c6339b50"}}],"container":{"kind":"readable","scanner":"files","name":"app.json"}}}"#,
        ]
        var decoded: [ChangeNotification] = []
        for line in lines {
            guard case .notification(let method, let params) = try RPCResponse.decode(Array(line.utf8)) else {
                Issue.record("not a notification: \(line)")
                continue
            }
            #expect(method == ChangeNotification.method)
            let changed = try ChangeNotification(params: params)
            let encoded = RPCResponse.notification(method: ChangeNotification.method, params: changed.params)
            #expect(String(decoding: encoded, as: UTF8.self) == line)
            decoded.append(changed)
        }
        #expect(decoded.map(\.container?.kind) == [.unreadable, .readable])
        #expect(decoded.first?.container?.problem?.hasPrefix("not valid JSON: line 1, column 15: ") == true)
        #expect(decoded.first?.changes.isEmpty == true && decoded.last?.changes.map(\.kind) == ["updated"])
        #expect(decoded.last?.container?.problem == nil)
        // Exactly as docs/PROTOCOL.md shows them, indented in its list.
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../docs/PROTOCOL.md"), encoding: .utf8)
        for line in lines { #expect(document.contains("\n  " + line + "\n"), "PROTOCOL.md lacks \(line)") }

        // A client of this version reads a later kind, and a notification without the member.
        let later = try ChangeNotification(
            json: .object([
                "subscription": "w1", "sequence": 3, "changes": [],
                "container": ["kind": "moved", "scanner": "files", "name": "app.json"],
            ]))
        #expect(later.container?.kind == "moved" && later.container?.problem == nil)
        #expect(try ChangeNotification(json: .object(["subscription": "w1", "sequence": 4])).container == nil)
        #expect(throws: JarvisError.self) {
            try ChangeNotification(
                json: .object(["subscription": "w1", "sequence": 5, "container": ["kind": "unreadable"]]))
        }
    }

    // MARK: - errors

    @Test func errors() throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":12,"error":{"code":-32601,"message":"unknown method 'frobnicate'; the methods are hello, ping, scanners, containers, list, get, set, delete, reset, history, watch, unwatch, journal, undo, redo, restore","data":{"code":"methodNotFound"}}}"#,
            #"{"jsonrpc":"2.0","id":10,"error":{"code":-32004,"message":"'launch_count' in 'com.example.demo.prefs' changed since revision 0000000000000000 (now \#(revision)); nothing was written; get it again and retry","data":{"code":"conflict"}}}"#,
        ]
        for line in lines {
            guard case .error(let id, let error) = try RPCResponse.decode(Array(line.utf8)) else {
                Issue.record("not an error: \(line)")
                continue
            }
            #expect(String(decoding: RPCResponse.failure(id: id, error: error), as: UTF8.self) == line)
            let wire = try Wire.ErrorObject(json: error.json)
            #expect(wire == error.wire)
        }
        let conflict = try Wire.ErrorObject(
            json: .object(["code": -32004, "message": "changed", "data": ["code": "conflict"]]))
        #expect(RPCError(conflict).jarvisError.code == .conflict)
        let broken = try Wire.ErrorObject(json: .object(["message": "odd"]))
        #expect(broken.code == -32603 && broken.data.code == "error")
    }

    // MARK: - malformed answers

    @Test func malformedAnswersNameWhatIsMissing() {
        #expect(throws: JarvisError.self) { try Wire.WatchResult(json: .object(["sequence": 1])) }
        #expect(throws: JarvisError.self) { try Wire.HistoryPage(json: .array([])) }
        #expect(throws: JarvisError.self) { try Wire.ItemResult(json: .object([:])) }
        #expect(throws: JarvisError.self) { try Wire.HelloResult(json: .object(["agent": "x"])) }
        do {
            _ = try Wire.BulkDeleteResult(json: .object(["scanner": "d"]))
            Issue.record("decoded a bulk delete answer without container")
        } catch {
            #expect(error.message.contains("'container'"))
        }
    }
}
