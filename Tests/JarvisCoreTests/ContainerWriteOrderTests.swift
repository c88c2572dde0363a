import Foundation
import JarvisCore
import JarvisScanners
import Testing

/// A real in-memory scanner whose writes to the container `slow` stop inside the scanner until
/// the test lets them go, and which records how many writes run at once per container.
final class StallingScanner: PreferenceScanner {
    let memory = MemoryScanner(id: "stall", contents: ["slow": ["a": 1], "fast": ["b": 2]])
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let running = Locked<[String: (now: Int, most: Int)]>([:])

    var id: String { memory.id }
    var info: ScannerInfo { memory.info }
    func containers() throws -> [ContainerInfo] { try memory.containers() }
    func container(named name: String) throws -> ContainerInfo? { try memory.container(named: name) }
    func read(_ request: ReadRequest) throws -> [ScannedEntry] { try memory.read(request) }

    func write(_ request: WriteRequest) throws {
        running.withLock { $0[request.container, default: (0, 0)].now += 1 }
        running.withLock { table in
            let entry = table[request.container]!
            table[request.container] = (entry.now, max(entry.most, entry.now))
        }
        defer { running.withLock { $0[request.container]!.now -= 1 } }
        if request.container == "slow" {
            entered.signal()
            release.wait()
        }
        try memory.write(request)
    }

    /// The most writes that ran at once in a container.
    func most(_ container: String) -> Int { running.withLock { $0[container]?.most ?? 0 } }
}

@Suite struct ContainerWriteOrderTests {
    @Test func aWriteToOneContainerProceedsWhileAnotherContainersWriteIsStuck() throws {
        let scanner = StallingScanner()
        let hub = JarvisHub()
        hub.register(scanner)
        let slowDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? hub.set(PreferenceAddress(scanner: "stall", container: "slow", key: "a"), to: 10)
            slowDone.signal()
        }
        #expect(scanner.entered.wait(timeout: .now() + 30) == .success)
        // The slow write is inside its scanner call, holding its container: another container's
        // write must not wait for it.
        let fastDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? hub.set(PreferenceAddress(scanner: "stall", container: "fast", key: "b"), to: 20)
            fastDone.signal()
        }
        let fastFinished = fastDone.wait(timeout: .now() + 30) == .success
        scanner.release.signal()
        #expect(fastFinished, "a write to 'fast' waited for the stuck write to 'slow'")
        #expect(slowDone.wait(timeout: .now() + 30) == .success)
        #expect(try hub.get(PreferenceAddress(scanner: "stall", container: "fast", key: "b")).value == 20)
    }

    @Test func writesToTheSameContainerStayInOrder() throws {
        let scanner = StallingScanner()
        let hub = JarvisHub()
        hub.register(scanner)
        let done = DispatchGroup()
        for value in 1...2 {
            done.enter()
            DispatchQueue.global().async {
                _ = try? hub.set(PreferenceAddress(scanner: "stall", container: "slow", key: "a"), to: .integer(Int64(value)))
                done.leave()
            }
        }
        // Let each write go once it is inside the scanner; both finish, one at a time.
        for _ in 1...2 {
            #expect(scanner.entered.wait(timeout: .now() + 30) == .success)
            scanner.release.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(scanner.most("slow") == 1)
    }
}
