import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// The words of the wire as types: change kinds, auth modes, transports and error codes are
/// compared as values, and their wire bytes are unchanged.
@Suite struct WireWordsTests {
    @Test func changeKindsAreTyped() throws {
        let change = ChangeNotification.Change(
            kind: .updated, address: PreferenceAddress(scanner: "s", container: "c", key: "k"), item: nil, old: nil)
        #expect(JSONWriter.string(change.json).contains(#""kind":"updated""#))
        let read = try ChangeNotification.Change(json: change.json)
        #expect(read.kind == .updated)
        switch read.kind {
        case .added, .removed: Issue.record("read as another kind")
        case .updated: break
        default: Issue.record("an unknown kind")
        }
        // A kind a later agent may send is kept, not refused.
        var later = change.json.objectValue ?? [:]
        later["kind"] = "renamed"
        #expect(try ChangeNotification.Change(json: .object(later)).kind.rawValue == "renamed")
        #expect(ChangeNotification.Change.Kind(RawChange.Kind.removed) == .removed)
    }

    @Test func authTransportAndErrorCodesAreTyped() throws {
        let capabilities = Wire.Capabilities(
            editing: true, reveal: false, production: false, maxLineLength: 10, tcp: true, auth: .token)
        #expect(JSONWriter.string(capabilities.json).contains(#""auth":"token""#))
        #expect(try Wire.Capabilities(json: capabilities.json).auth == .token)
        #expect(try Wire.Capabilities(json: .object([:])).auth == .none)
        let record = AuditRecord(
            action: .set, client: AuditRecord.Client(transport: .tcp, peer: "127.0.0.1:1", name: nil),
            address: PreferenceAddress(scanner: "s", container: "c", key: "k"), oldRevision: nil, newRevision: nil)
        let wire = Wire.HistoryRecord(record)
        #expect(wire.transport == .tcp && wire.action == .set)
        #expect(JSONWriter.string(wire.json).contains(#""transport":"tcp""#))
        #expect(try Wire.HistoryRecord(json: wire.json).transport == .tcp)
        #expect(RPCError.methodNotFound("nope").jarvisError.code == .methodNotFound)
    }
}
