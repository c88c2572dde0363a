import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// The async client against a real agent over a real socket: calls, concurrent calls, the
/// change sequence and its cancellation, and a pool that never blocks on the socket.
// The limit guards against a hang, not a slow run: under `swift test` the synchronous end-to-end
// suites hold the cooperative threads (two on a two-core machine) for minutes at a time, and an
// async test that started waits for one of them, so two minutes was exceeded on a loaded machine.
@Suite(.timeLimit(.minutes(15))) struct AsyncJarvisClientTests {
    let fixture: AgentFixture

    init() throws {
        fixture = try AgentFixture(tcp: false)
    }

    private func place(_ key: String) -> Wire.Place {
        Wire.Place(scanner: "memory", container: "app", key: key)
    }

    @Test func callsAnswerLikeTheBlockingClient() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix, clientName: "async-test")
        defer { client.close() }
        #expect(client.helloResult.agent == "fixture")
        #expect(client.helloResult.scanners == ["memory", "vault"])
        try await client.ping()
        #expect(try await client.scanners().map(\.id) == ["memory", "vault"])
        #expect(try await client.containers(scanner: "memory").map(\.name) == ["app"])
        #expect(try await client.get(place("name")).value == .string("Ada"))
        let stored = try await client.set(place("count"), to: .integer(7))
        #expect(stored.value == .integer(7))
        #expect(try await client.listing(Wire.ListParams(scanner: "memory")).items.count == 2)
        let removed = try await client.delete(place("count"), expectedRevision: stored.revision)
        #expect(removed.value == .integer(7))
        let history = try await client.history(Wire.HistoryParams(client: "async-test"))
        #expect(history.records.map(\.action) == ["set", "delete"])
        let gone = place("count")
        await #expect(throws: JarvisError.self) { try await client.get(gone) }
        let raw = try await client.call("ping")
        #expect(raw == .object(["pong": true]))
    }

    @Test func concurrentCallsAreEachAnsweredRightly() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix)
        defer { client.close() }
        let values = try await withThrowingTaskGroup(of: (Int, PreferenceValue?).self) { group in
            for index in 0..<40 {
                let key = place("k\(index)")
                group.addTask {
                    try await client.set(key, to: .integer(Int64(index)))
                    return (index, try await client.get(key).value)
                }
            }
            var collected: [Int: PreferenceValue?] = [:]
            for try await (index, value) in group { collected[index] = value }
            return collected
        }
        #expect(values.count == 40)
        for (index, value) in values { #expect(value == .integer(Int64(index))) }
    }

    @Test func changesArriveAsAnAsyncSequence() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix)
        defer { client.close() }
        let stream = try await client.changes(Wire.WatchParams(scanner: "memory", container: "app"))
        #expect(stream.subscription.id.isEmpty == false)
        // Calls go on while the stream is open: it has its own connection.
        try await client.set(place("count"), to: .integer(2))
        try await client.set(place("name"), to: .string("Grace"))
        var seen: [String: PreferenceValue] = [:]
        for try await notification in stream {
            #expect(notification.subscription == stream.subscription.id)
            for change in notification.changes { seen[change.address.key] = change.item?.value }
            if seen.count == 2 { break }
        }
        #expect(seen == ["count": .integer(2), "name": .string("Grace")])
        // Leaving the loop dropped the iterator; the stream's connection closes with the stream.
        stream.cancel()
        #expect(throws: JarvisError.self) { try stream.connection.client.ping() }
    }

    @Test func cancellingTheWaitingTaskEndsTheWatchCleanly() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix)
        defer { client.close() }
        let stream = try await client.changes(Wire.WatchParams(container: "nothing-changes-here"))
        let waiter = Task { () -> Int in
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        // Let the waiter block in the read, then cancel it.
        try await Task.sleep(for: .milliseconds(200))
        waiter.cancel()
        let count = try await waiter.value
        #expect(count == 0)
        #expect(stream.connection.isEnded)
        #expect(throws: JarvisError.self) { try stream.connection.client.ping() }
        // The agent is unharmed, and the main connection still works.
        try await client.ping()
    }

    @Test func waitingStreamsNeverHoldThePool() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix)
        defer { client.close() }
        // More waiting streams than the machine has cores: if each held a pool thread while
        // waiting, the calls below could never run.
        let waiting = max(8, ProcessInfo.processInfo.activeProcessorCount * 4)
        var streams: [ChangeStream] = []
        for _ in 0..<waiting {
            streams.append(try await client.changes(Wire.WatchParams(container: "quiet-\(UUID().uuidString)")))
        }
        let waiters = streams.map { stream in
            Task { () -> Int in
                var count = 0
                for try await _ in stream { count += 1 }
                return count
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        for index in 0..<20 {
            try await client.set(place("busy"), to: .integer(Int64(index)))
            try await client.ping()
        }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { #expect(try await waiter.value == 0) }
    }

    @Test func aStreamWhoseAgentStopsThrows() async throws {
        let local = try AgentFixture(tcp: false)
        let client = try await AsyncJarvisClient.connect(to: local.unix)
        defer { client.close() }
        let stream = try await client.changes()
        local.agent.stop()
        await #expect(throws: JarvisError.self) {
            for try await _ in stream {}
        }
    }
}
