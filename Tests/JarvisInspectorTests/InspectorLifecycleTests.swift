import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// A session dropped without `close()` leaves nothing behind: no subscription in the agent, no
/// thread, no descriptor. Changes that arrive while a load reads are kept; any number of
/// observers are told.
@Suite(.serialized) struct InspectorLifecycleTests {
    typealias Kind = InspectorSessionTests.Kind

    @Test(arguments: Kind.allCases) func droppingAHundredSessionsLeavesNothingBehind(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let engine = agent.service.engine
        // One session first, so lazily made queues and threads exist before counting.
        do {
            let warm = InspectorSession(source: try kind.source(agent))
            warm.startLive()
            try warm.load()
        }
        try eventually("the warm-up session to go") { engine.subscriptionCount == 0 && agent.connectionCount == 0 }
        // Other suites run beside this one: count what belongs to this agent, its
        // subscriptions and connections, not the process's descriptors. A remote feed's
        // thread reads its own connection and ends when that closes, so connections back
        // where they were means its threads ended too.
        let (subscriptions, connections) = (engine.subscriptionCount, agent.connectionCount)
        for _ in 0..<100 {
            let session = InspectorSession(source: try kind.source(agent))
            session.onChange {}
            session.startLive()
            try session.load()
            #expect(session.state.isLive)
            // What is counted is there while a session lives: its subscription, its sockets.
            #expect(engine.subscriptionCount > subscriptions)
            if kind == .remote { #expect(agent.connectionCount > connections) }
        }
        try eventually("every subscription to end") { engine.subscriptionCount == subscriptions }
        try eventually("every connection to close") { agent.connectionCount <= connections }
    }

    @Test(arguments: Kind.allCases) func aCataloguedKeyRemovedElsewhereShowsAsUnsetWithItsDefault(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let session = InspectorSession(source: try kind.source(agent))
        defer { session.close() }
        session.startLive()
        try session.load()
        let count = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "launch_count")
        let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
        defer { other.close() }
        _ = try other.delete(count)
        try eventually("the removal to arrive") { session.state.row(for: count)?.has(.unset) == true }
        #expect(session.state.row(for: count)?.preview == "unset (default: 0)")
        #expect(session.state.lastChange?.text.hasPrefix("launch_count: removed") == true)
        // A change names the key and both values, for a status line.
        let name = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        try other.set(name, to: "Grace")
        try eventually("the change to arrive") { session.state.lastChange?.text == "user_name: Ada → Grace" }
    }

    @Test(arguments: Kind.allCases) func aChangeThatArrivesDuringALoadIsKept(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let inner = try kind.source(agent)
        let name = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "user_name")
        let arrived = Locked(false)
        // Between reading the page and storing it, another client changes a key on it and its
        // notification arrives: the page's older value must not win.
        let source = InterleavingSource(inner: inner) {
            let other = try JarvisClient(endpoint: agent.endpoint, clientName: "someone-else")
            defer { other.close() }
            try other.set(name, to: "Grace")
            try eventually("the notification") { arrived.current }
        }
        let session = InspectorSession(source: source)
        defer { session.close() }
        let observation = session.observe {
            if session.state.lastChange?.text.contains("Grace") == true { arrived.withLock { $0 = true } }
        }
        defer { observation.cancel() }
        session.startLive()
        try session.load()
        #expect(session.state.row(for: name)?.preview == "Grace")
    }

    @Test func everyObserverIsTold() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        defer { agent.stop() }
        let session = InspectorSession(source: InProcessSource(agent: agent))
        defer { session.close() }
        let told = Locked([0, 0, 0])
        session.onChange { told.withLock { $0[0] += 1 } }
        let first = session.observe { told.withLock { $0[1] += 1 } }
        let second = session.observe { told.withLock { $0[2] += 1 } }
        try session.load()
        #expect(told.current == [1, 1, 1])
        second.cancel()
        try session.load()
        #expect(told.current == [2, 2, 1])
        _ = first
    }
}

/// A real source that runs `between` after the first page of a listing is read and before it
/// is returned: a change made there arrives while the load is under way.
final class InterleavingSource: InspectorSource {
    let inner: any InspectorSource
    let between: @Sendable () throws -> Void
    private let done = Locked(false)

    init(inner: any InspectorSource, between: @escaping @Sendable () throws -> Void) {
        self.inner = inner
        self.between = between
    }

    var hello: Wire.HelloResult { inner.hello }

    func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type) throws(JarvisError) -> R {
        let answer = try inner.call(params, expecting: expecting)
        if P.self == Wire.ListParams.self,
            !done.withLock({ done in
                defer { done = true }; return done
            })
        {
            do { try between() } catch { throw JarvisError(.unavailable, "\(error)") }
        }
        return answer
    }

    func watch(_ params: Wire.WatchParams, events: @escaping @Sendable (InspectorFeedEvent) -> Void)
        throws(JarvisError) -> any InspectorFeed
    {
        try inner.watch(params, events: events)
    }

    func close() { inner.close() }
}
