import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote

/// Issue 17 items 3 and 6: the change backlog is bounded in bytes, and keeps no secret value.
@Suite struct ChangeBacklogBudgetTests {
    @Test func theBacklogHoldsAtMostItsByteBudget() {
        var backlog = ChangeBacklog(capacity: 1024, byteBudget: 4 << 20)
        let large = PreferenceValue.string(String(repeating: "x", count: 900_000))
        for index in 0..<100 {
            let old = ScannedEntry(key: "k", value: large)
            let new = ScannedEntry(key: "k", value: .string(String(repeating: "y", count: 900_000 + index)))
            _ = backlog.append(
                scanner: "s", container: ContainerInfo("c"),
                changes: [RawChange(kind: .updated, key: "k", old: old, new: new)], time: Date())
            #expect(backlog.heldBytes <= 4 << 20)
        }
        #expect(backlog.latest == 100)
        #expect(backlog.count == 2, "two events of 1.8 MB fit in 4 MiB")
        #expect(backlog.events(after: 98)?.map(\.sequence) == [99, 100])
        #expect(backlog.events(after: 97) == nil, "dropped for room: list again")
        // An event larger than the whole budget is not kept, and nothing before it either.
        let huge = PreferenceValue.data(Data(count: 5 << 20))
        _ = backlog.append(
            scanner: "s", container: ContainerInfo("c"),
            changes: [RawChange(kind: .added, key: "h", old: nil, new: ScannedEntry(key: "h", value: huge))],
            time: Date())
        #expect(backlog.heldBytes == 0)
        #expect(backlog.events(after: 100) == nil)
        #expect(backlog.events(after: 101)?.isEmpty == true)
    }

    @Test func anAgentsBacklogStaysWithinBudgetAfterManyLargeSets() throws {
        let hub = JarvisHub()
        hub.register(MemoryScanner(id: "m", contents: ["app": ["blob": "seed"]]))
        let engine = ChangeEngine(hub: hub)
        let subscribed = engine.subscribe(ChangeEngine.Filter(scanner: "m"), since: nil, sink: { _ in })
        engine.release(subscribed.id)
        let address = PreferenceAddress(scanner: "m", container: "app", key: "blob")
        for index in 0..<40 {
            try hub.set(address, to: .string(String(repeating: Character(UnicodeScalar(97 + index % 26)!), count: 900_000) + "\(index)"))
            #expect(eventually { engine.latestSequence >= Int64(index + 1) })
        }
        engine.unsubscribe(subscribed.id)
        // 40 events of 1.8 MB each (old and new values) would be 72 MB.
        #expect(engine.backlogBytes <= 16 << 20, "\(engine.backlogBytes) bytes held")
        #expect(engine.backlogBytes > 0)
    }

    @Test func aSecretScannersChangesAreKeptMaskedInTheBacklog() throws {
        var configuration = JarvisConfiguration.debug
        configuration.allowsReveal = true
        let hub = JarvisHub(configuration: configuration)
        hub.register(MemoryScanner(id: "vault", isSecret: true, contents: ["github": ["ada": "old-password-1"]]))
        let engine = ChangeEngine(hub: hub)
        let lines = Locked<[String]>([])
        let subscribed = engine.subscribe(
            ChangeEngine.Filter(scanner: "vault", reveal: true), since: nil,
            sink: { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } })
        engine.release(subscribed.id)
        let address = PreferenceAddress(scanner: "vault", container: "github", key: "ada")
        try hub.set(address, to: "new-password-2")
        #expect(eventually { engine.latestSequence >= 1 })
        // The revealing watcher got the values live (and its reveal is audited elsewhere)...
        #expect(eventually { lines.current.contains { $0.contains("new-password-2") } })
        engine.unsubscribe(subscribed.id)
        // ...but the backlog holds neither value, only the masked items.
        let kept = try #require(engine.backlog(after: 0))
        #expect(kept.count == 1)
        let text = String(describing: kept)
        #expect(!text.contains("old-password-1") && !text.contains("new-password-2"), "\(text)")
        let change = try #require(kept.first?.changes.first)
        #expect(change.old == nil && change.new == nil)
        #expect(change.sealed?.new?.mask != nil && change.sealed?.old?.mask != nil)
        // A resume replays it masked.
        let replayed = Locked<[String]>([])
        let resumed = engine.subscribe(
            ChangeEngine.Filter(scanner: "vault", reveal: true), since: 0,
            sink: { line in replayed.withLock { $0.append(String(decoding: line, as: UTF8.self)) } })
        engine.release(resumed.id)
        engine.unsubscribe(resumed.id)
        #expect(replayed.current.count == 1)
        #expect(replayed.current.first?.contains("fingerprint") == true, "\(replayed.current)")
        #expect(!(replayed.current.first?.contains("password") ?? true))
    }
}
