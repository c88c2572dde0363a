import Dispatch
import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote

/// A scanner whose storage never answers until told to (a desktop keyring that hangs): every
/// call waits on a gate.
final class HangingScanner: PreferenceScanner, Sendable {
    let id = "hanging"
    private let gate = DispatchSemaphore(value: 0)
    private let waiting = Locked(0)

    func containers() throws -> [ContainerInfo] {
        hang()
        return [ContainerInfo("keyring")]
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        hang()
        return []
    }

    private func hang() {
        waiting.withLock { $0 += 1 }
        gate.wait()
        // Let the next caller through too: released once, the storage answers from then on.
        gate.signal()
    }

    /// How many calls have waited.
    var calls: Int { waiting.current }

    /// Lets every call through.
    func release() { gate.signal() }
}

/// A scanner whose storage hangs holds up its own changes alone: a watch of every scanner is
/// answered within the engine's bound, and another scanner's change is still sent.
@Suite struct ChangeEngineHungScannerTests {
    @Test func aHangingScannerHoldsUpNeitherTheAnswerNorTheOtherScannersChanges() throws {
        let hanging = HangingScanner()
        defer { hanging.release() }
        let memory = MemoryScanner(id: "memory", contents: ["app": ["name": "Ada"]])
        let hub = JarvisHub()
        hub.register(hanging)
        hub.register(memory)
        let engine = ChangeEngine(hub: hub)
        let lines = Locked<[String]>([])
        let answered = Locked<ChangeEngine.Subscribed?>(nil)
        Thread {
            let subscribed = engine.subscribe(ChangeEngine.Filter(), since: nil) { line in
                lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
            }
            engine.release(subscribed.id)
            answered.withLock { $0 = subscribed }
        }.start()
        #expect(eventually(timeout: .seconds(60)) { answered.current != nil }, "the watch was never answered")
        #expect(hanging.calls >= 1, "the hanging scanner was asked")
        memory.update("app", "name", to: .string("Grace"))
        #expect(
            eventually(timeout: .seconds(60)) { lines.withLock { $0.contains { $0.contains("Grace") } } },
            "the other scanner's change was not sent while one hung")
    }
}
