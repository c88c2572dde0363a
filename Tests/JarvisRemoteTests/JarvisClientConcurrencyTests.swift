import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// One blocking client used from several threads: a thread waiting for a change never holds
/// up calls, and a failed connection is an error for every waiter, never a silent nil.
// The limit guards against a hang, not a slow run: under `swift test` the synchronous end-to-end
// suites hold the cooperative threads (two on a two-core machine) for minutes at a time, and an
// async test that started waits for one of them, so two minutes was exceeded on a loaded machine.
@Suite(.timeLimit(.minutes(15))) struct JarvisClientConcurrencyTests {
    let fixture: AgentFixture

    init() throws {
        fixture = try AgentFixture(tcp: false)
    }

    private func place(_ key: String) -> Wire.Place {
        Wire.Place(scanner: "memory", container: "app", key: key)
    }

    /// Runs `body` on a thread of its own and waits (up to 20 s) until it has finished.
    private func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + 20) == .success
    }

    @Test func aThreadWaitingForAChangeDoesNotHoldUpCalls() throws {
        let client = try JarvisClient(endpoint: fixture.unix)
        defer { client.close() }
        _ = try client.watch(scanner: "memory", container: "app")
        let seen = Locked<ChangeNotification?>(nil)
        let waiter = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let change = try? client.nextChange(timeout: nil)
            seen.withLock { $0 = change }
            waiter.signal()
        }
        // The waiter is (or soon will be) reading the socket; calls go on regardless, and
        // their own change reaches the waiter.
        let answered = Locked<[String]>([])
        let name = place("name")
        #expect(
            finishes {
                for index in 0..<5 {
                    do {
                        try client.ping()
                        let stored = try client.get(name)
                        answered.withLock { $0.append("\(index) \(String(describing: stored.value))") }
                    } catch {
                        answered.withLock { $0.append("\(index) \(error)") }
                    }
                }
            }, "calls were held up by the thread waiting in nextChange")
        #expect(answered.current.count == 5)
        #expect(answered.current.allSatisfy { $0.contains("Ada") }, "\(answered.current)")
        try client.set(place("count"), to: .integer(9))
        #expect(waiter.wait(timeout: .now() + 20) == .success)
        #expect(seen.current?.changes.map(\.address.key) == ["count"])
    }

    @Test func closingWakesAWaiterWithAnError() throws {
        let client = try JarvisClient(endpoint: fixture.unix)
        _ = try client.watch(scanner: "memory", container: "app")
        let outcome = Locked<String>("waiting")
        let waiter = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                let change = try client.nextChange(timeout: .seconds(60))
                outcome.withLock { $0 = change == nil ? "nil" : "change" }
            } catch let error as JarvisError {
                outcome.withLock { $0 = "error \(error.code.rawValue)" }
            } catch {
                outcome.withLock { $0 = "error \(error)" }
            }
            waiter.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)
        client.close()
        #expect(waiter.wait(timeout: .now() + 20) == .success)
        #expect(outcome.current == "error unavailable")
    }

    /// Each waiting stream is a readiness source, not a thread parked in `poll`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "needs /proc (Linux): it counts the process's threads there"))
    func waitingStreamsParkNoThreads() async throws {
        let client = try await AsyncJarvisClient.connect(to: fixture.unix)
        defer { client.close() }
        let waiting = 60
        var streams: [ChangeStream] = []
        for _ in 0..<waiting {
            streams.append(try await client.changes(Wire.WatchParams(container: "quiet-\(UUID().uuidString)")))
        }
        let before = Self.threadCount()
        let waiters = streams.map { stream in
            Task { () -> Int in
                var count = 0
                for try await _ in stream { count += 1 }
                return count
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let during = Self.threadCount()
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { #expect(try await waiter.value == 0) }
        // 60 parked reads were 60 threads; other suites running at once add some of their own.
        #expect(during - before < waiting / 2, "threads: \(before) before, \(during) while \(waiting) streams wait")
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
