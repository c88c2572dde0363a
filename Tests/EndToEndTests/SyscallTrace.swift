import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `strace` attached to a running process: the system calls it makes until ``stop(after:)``,
/// for tests that count what the agent does to files.
final class SyscallTrace {
    /// Whether tracing works here: strace installed, and the permission to attach (root).
    static let isAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") && getuid() == 0

    private let process = Process()
    private let log: URL

    /// Attaches to `pid` (all its threads), tracing the calls `filter` names (`-e trace=…`),
    /// and returns once strace says it is attached. `stringLimit` is how much of each buffer
    /// the log shows (strace's `-s`; enough to see which request a read carried).
    init(pid: Int32, filter: String, in folder: URL, stringLimit: Int? = nil) throws {
        let name = UUID().uuidString
        log = folder.appendingPathComponent("trace-\(name)")
        let messages = folder.appendingPathComponent("strace-\(name).err")
        _ = FileManager.default.createFile(atPath: messages.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments =
            ["-f"] + (stringLimit.map { ["-s", String($0)] } ?? []) + ["-e", "trace=\(filter)", "-o", log.path, "-p", String(pid)]
        process.standardError = try FileHandle(forWritingTo: messages)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !((try? String(contentsOf: messages, encoding: .utf8)) ?? "").contains("attached"), Date() < deadline {
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The log so far.
    var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits (30 s at most) until the log satisfies `condition`.
    func wait(until condition: (String) -> Bool) {
        let deadline = Date().addingTimeInterval(30)
        while !condition(text), Date() < deadline { usleep(20_000) }
    }

    /// Ends the trace and returns its log.
    @discardableResult
    func stop() -> String {
        // SIGKILL: a child started from a test's worker thread never sees SIGTERM or SIGINT;
        // the kernel detaches the traced process when strace dies.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return text
    }

    /// Waits until the trace shows `marker` (a call known to come last) `count` times, then
    /// detaches.
    /// - Returns: the traced calls, one line each.
    func stop(after marker: String, count: Int = 1) -> [Substring] {
        wait { $0.components(separatedBy: marker).count - 1 >= count }
        return stop().split(separator: "\n")
    }
}
