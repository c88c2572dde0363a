import Foundation
import Testing

@testable import JarvisCore

@Suite struct ChangeTrackingTests {
    private func snapshot(_ values: [String: PreferenceValue]) -> ContainerSnapshot {
        ContainerSnapshot(info: ContainerInfo("c"), entries: values.map { ScannedEntry(key: $0.key, value: $0.value) })
    }

    @Test func diffReportsAddedUpdatedRemovedInKeyOrder() {
        let old = snapshot(["a": .integer(1), "b": .string("x"), "c": .boolean(true)])
        let new = snapshot(["a": .integer(2), "c": .boolean(true), "d": .real(0.5)])
        let changes = ContainerSnapshot.changes(from: old, to: new)
        #expect(changes.map(\.key) == ["a", "b", "d"])
        #expect(changes.map(\.kind) == [.updated, .removed, .added])
        #expect(changes[0].old?.value == .integer(1) && changes[0].new?.value == .integer(2))
        #expect(changes[1].new == nil && changes[2].old == nil)
    }

    @Test func equalSnapshotsAndMissingContainers() {
        let same = snapshot(["a": .integer(1)])
        #expect(ContainerSnapshot.changes(from: same, to: same).isEmpty)
        #expect(ContainerSnapshot.changes(from: nil, to: same).map(\.kind) == [.added])
        #expect(ContainerSnapshot.changes(from: same, to: nil).map(\.kind) == [.removed])
        #expect(ContainerSnapshot.changes(from: nil, to: nil).isEmpty)
    }

    /// A value read twice is the same value, whatever IEEE 754 says about NaN.
    @Test func aValueThatDidNotChangeIsNeverReportedNaNIncluded() throws {
        let big = try #require(PreferenceValue.integer(decimal: "18446744073709551615"))
        let values: [String: PreferenceValue] = [
            "nan": .real(.nan), "nested": ["deep": [.real(.nan), .real(-.infinity)]], "big": big,
            "huge": try #require(PreferenceValue.real(literal: "1e400")),
        ]
        #expect(ContainerSnapshot.changes(from: snapshot(values), to: snapshot(values)).isEmpty)
        // Built afresh, as a re-read builds them, they are still no change.
        let again = snapshot(["nan": .real(Double("nan")!), "nested": ["deep": [.real(.nan), .real(-.infinity)]]])
        #expect(ContainerSnapshot.changes(from: snapshot(values), to: again).map(\.key) == ["big", "huge"])
        // A real change next to a NaN is still reported, and so is -0.0 becoming 0.0.
        let changed = snapshot(["nan": .real(.nan), "zero": .real(0)])
        let changes = ContainerSnapshot.changes(from: snapshot(["nan": .real(.nan), "zero": .real(-0.0)]), to: changed)
        #expect(changes.map(\.key) == ["zero"])
        #expect(PreferenceValue.real(.nan).hashValue == PreferenceValue.real(.nan).hashValue)
    }

    @Test func backlogResumesWithinCapacityOnly() {
        var backlog = ChangeBacklog(capacity: 3)
        #expect(backlog.events(after: 0)?.isEmpty == true)
        for _ in 1...5 {
            _ = backlog.append(scanner: "s", container: ContainerInfo("c"), changes: [], time: Date())
        }
        #expect(backlog.latest == 5)
        #expect(backlog.events(after: 2)?.map(\.sequence) == [3, 4, 5])
        #expect(backlog.events(after: 4)?.map(\.sequence) == [5])
        #expect(backlog.events(after: 5)?.isEmpty == true)
        #expect(backlog.events(after: 1) == nil, "event 2 was dropped")
        #expect(backlog.events(after: 9) == nil, "a sequence from another run")
    }

    @Test func signalCallsObserversUntilStopped() {
        let signal = ChangeSignal()
        let seen = Locked<[String?]>([])
        let token = signal.observe { container in seen.withLock { $0.append(container) } }
        signal.send(container: "a")
        signal.send(container: nil)
        signal.stopObserving(token)
        signal.send(container: "b")
        #expect(seen.current == ["a", nil])
    }
}
