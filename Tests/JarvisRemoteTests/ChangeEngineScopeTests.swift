import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote

/// An in-memory scanner that counts what the change engine reads from it.
final class CountingScanner: PreferenceScanner, Sendable {
    let id = "counting"
    let changes = ChangeSignal()
    private let state = Locked((values: [String: [String: Int64]](), reads: [String: Int](), listings: 0))

    init(_ values: [String: [String: Int64]]) {
        state.withLock { $0.values = values }
    }

    func containers() throws -> [ContainerInfo] {
        state.withLock { state in
            state.listings += 1
            return state.values.keys.sorted().map { ContainerInfo($0) }
        }
    }

    /// Found without listing, as a scanner that can look one container up does.
    func container(named name: String) throws -> ContainerInfo? {
        state.withLock { $0.values[name] == nil ? ContainerInfo(name, exists: false) : ContainerInfo(name) }
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        try state.withLock { state in
            state.reads[request.container, default: 0] += 1
            guard let values = state.values[request.container] else {
                throw JarvisError(.notFound, "no container '\(request.container)'")
            }
            return values.sorted { $0.key < $1.key }.map { ScannedEntry(key: $0.key, value: .integer($0.value)) }
        }
    }

    func watchTargets() -> [WatchTarget] { [.signal(changes)] }

    func set(_ key: String, to value: Int64, in container: String) {
        state.withLock { $0.values[container, default: [:]][key] = value }
    }

    func reads(of container: String) -> Int { state.withLock { $0.reads[container] ?? 0 } }
    var listings: Int { state.withLock { $0.listings } }
}

/// The change engine reads only the containers somebody watches.
@Suite struct ChangeEngineScopeTests {
    let scanner = CountingScanner(["small": ["a": 1], "big": ["b": 2, "c": 3]])
    let engine: ChangeEngine
    let lines = Locked<[String]>([])

    init() {
        let hub = JarvisHub()
        hub.register(scanner)
        engine = ChangeEngine(hub: hub)
    }

    private var sink: ChangeEngine.Sink {
        let lines = lines
        return { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }
    }

    @Test func watchingANamedContainerReadsOnlyIt() throws {
        let subscribed = engine.subscribe(
            ChangeEngine.Filter(scanner: "counting", container: GlobPattern("small")), since: nil, sink: sink)
        engine.release(subscribed.id)
        #expect(scanner.reads(of: "small") == 1)
        #expect(scanner.reads(of: "big") == 0)
        #expect(scanner.listings == 0)

        // A sign of change in the other container reads nothing; one in the watched
        // container reads it (both hints are flushed together, in one pass).
        scanner.set("b", to: 20, in: "big")
        scanner.changes.send(container: "big")
        scanner.set("a", to: 10, in: "small")
        scanner.changes.send(container: "small")
        #expect(eventually { lines.current.contains { $0.contains("\"value\":10") } })
        #expect(scanner.reads(of: "big") == 0)
        #expect(!lines.current.contains { $0.contains("\"container\":\"big\"") })

        // "Something changed somewhere" reads the watched container only.
        let before = scanner.reads(of: "small")
        scanner.changes.send(container: nil)
        #expect(eventually { scanner.reads(of: "small") > before })
        #expect(scanner.reads(of: "big") == 0)
        #expect(scanner.listings == 0)
        engine.unsubscribe(subscribed.id)
    }

    @Test func aPatternListsContainersButReadsOnlyTheMatchingOnes() throws {
        let subscribed = engine.subscribe(
            ChangeEngine.Filter(scanner: "counting", container: GlobPattern("sm*")), since: nil, sink: sink)
        engine.release(subscribed.id)
        #expect(scanner.listings == 1)
        #expect(scanner.reads(of: "small") == 1)
        #expect(scanner.reads(of: "big") == 0)
        engine.unsubscribe(subscribed.id)
    }

    @Test func aWiderSubscriptionBaselinesNewContainersWithoutReportingThem() throws {
        let narrow = engine.subscribe(
            ChangeEngine.Filter(scanner: "counting", container: GlobPattern("small")), since: nil, sink: sink)
        engine.release(narrow.id)
        let wide = engine.subscribe(ChangeEngine.Filter(scanner: "counting"), since: nil, sink: sink)
        engine.release(wide.id)
        // The big container is read for its baseline, the small one (already known) is not.
        #expect(scanner.reads(of: "big") == 1)
        #expect(scanner.reads(of: "small") == 1)
        #expect(lines.current.isEmpty)
        scanner.set("c", to: 30, in: "big")
        scanner.changes.send(container: "big")
        #expect(eventually { lines.current.contains { $0.contains("\"value\":30") } })
        engine.unsubscribe(narrow.id)
        engine.unsubscribe(wide.id)
    }
}
