import Foundation
import JarvisTestSupport
import Testing

/// A real program that embeds the agent (`jarvis-bench --defaults-host`) writes through its own
/// `UserDefaults`; the real `jarvis` reads, watches and writes the same suites over the socket.
///
/// On Linux, Foundation keeps such writes in memory until something saves them, and a suite
/// the program created since has no file yet: the agent must still serve it.
@Suite(.serialized) struct HostWritesEndToEndTests {
    let sandbox: Sandbox
    let host: DefaultsHostProcess

    init() throws {
        sandbox = try Sandbox()
        host = try DefaultsHostProcess(sandbox: sandbox)
    }

    /// `jarvis` run against the host's agent.
    private func jarvis(_ arguments: String...) throws -> CommandResult {
        try sandbox.run(Binaries.url("jarvis"), ["--agent", host.socketPath] + arguments, limit: 60)
    }

    @Test func aSuiteTheProgramJustCreatedIsServed() throws {
        // Failed before the agent saved pending writes when listing: the suite had no file, so
        // `jarvis get` answered "no container" until Foundation happened to save it.
        try host.send("put com.example.fresh greeting hello")
        let served = eventually(timeout: .seconds(30)) {
            (try? jarvis("get", "com.example.fresh", "greeting"))?.stdout == "hello\n"
        }
        let last = try jarvis("get", "com.example.fresh", "greeting")
        #expect(served, "jarvis get answered: \(last.stdout)\(last.stderr)")
        let listing = try jarvis("ls")
        #expect(listing.stdout.contains("defaults:com.example.fresh"))
        #expect(listing.stdout.contains("greeting"))

        // And the other way, as before: the program reads what `jarvis set` stored.
        #expect(try jarvis("set", "com.example.fresh", "greeting", "from jarvis").status == 0)
        #expect(try host.read("com.example.fresh", "greeting") == "from jarvis")
    }

    @Test func theProgramsWriteIsAnOutsideChangeWithANewRevision() throws {
        try host.send("put com.example.watched greeting hello")
        #expect(eventually(timeout: .seconds(30)) { (try? jarvis("get", "com.example.watched", "greeting"))?.status == 0 })
        let before = try revision("com.example.watched", "greeting")
        let watch = Process()
        watch.executableURL = try Binaries.url("jarvis")
        watch.arguments = ["--agent", host.socketPath, "watch", "com.example.watched"]
        watch.environment = sandbox.environment
        let output = Pipe()
        let errors = Pipe()
        watch.standardOutput = output
        watch.standardError = errors
        try watch.run()
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        let lines = LineCollector(output.fileHandleForReading)
        let started = LineCollector(errors.fileHandleForReading)
        // Only a change made once the watch has started is news to it.
        #expect(eventually(timeout: .seconds(30)) { started.text.contains("watching from") })

        try host.send("put com.example.watched greeting world")
        #expect(
            eventually(timeout: .seconds(30)) { lines.text.contains("hello → world") },
            "jarvis watch printed: \(lines.text)")
        let after = try revision("com.example.watched", "greeting")
        #expect(after != before)

        // A write that read the value before the program changed it is refused, and loses nothing.
        let stale = try jarvis("set", "com.example.watched", "greeting", "stale", "--expect", before)
        #expect(stale.status != 0)
        #expect(try host.read("com.example.watched", "greeting") == "world")
        // The journal names the program's change as made outside any client.
        let history = try jarvis("history")
        #expect(history.stdout.contains("outside"), "jarvis history printed: \(history.stdout)")
    }

    private func revision(_ suite: String, _ key: String) throws -> String {
        let result = try jarvis("get", suite, key, "--json")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["revision"] as? String, "jarvis get --json printed: \(result.stdout)")
    }
}

/// `jarvis-bench --defaults-host`: a program that embeds the agent over its own `UserDefaults`,
/// with a private HOME, told what to write and read on its standard input.
final class DefaultsHostProcess {
    let process = Process()
    let socketPath: String
    private let input = Pipe()
    private let output: LineCollector

    init(sandbox: Sandbox) throws {
        let home = sandbox.root.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        process.executableURL = try Binaries.url("jarvis-bench")
        process.arguments = ["--defaults-host", sandbox.runtime.path]
        var environment = sandbox.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        process.environment = environment
        process.standardInput = input
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        output = LineCollector(pipe.fileHandleForReading)
        try process.run()
        let collector = output
        guard eventually(timeout: .seconds(30), { collector.text.contains("\n") }),
            let line = collector.text.split(separator: "\n").first, line.hasPrefix("socket ")
        else {
            process.terminate()
            throw HarnessError("the defaults host did not start: \(collector.text)")
        }
        socketPath = String(line.dropFirst("socket ".count))
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends one command line (`put SUITE KEY TEXT`, `read SUITE KEY`).
    func send(_ line: String) throws {
        guard input.fileHandleForWriting.writeQuietly((line + "\n").utf8) else {
            throw HarnessError("the host took no command '\(line)': it has quit")
        }
    }

    /// What the program reads for a key through its own `UserDefaults` now.
    func read(_ suite: String, _ key: String) throws -> String? {
        let seen = output.text.components(separatedBy: "\nvalue ").count
        try send("read \(suite) \(key)")
        let collector = output
        guard eventually(timeout: .seconds(30), { collector.text.components(separatedBy: "\nvalue ").count > seen })
        else { return nil }
        let answer = collector.text.components(separatedBy: "\nvalue ").last ?? ""
        return answer.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    }
}

/// Everything a pipe has delivered so far, read on a background thread.
final class LineCollector: @unchecked Sendable {
    // Guards `collected`, appended by the reading thread and read by the test.
    private let lock = NSLock()
    private var collected = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                lock.lock()
                collected.append(chunk)
                lock.unlock()
            }
        }
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }
}
