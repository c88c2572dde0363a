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
    /// and returns once strace says it is attached.
    init(pid: Int32, filter: String, in folder: URL) throws {
        let name = UUID().uuidString
        log = folder.appendingPathComponent("trace-\(name)")
        let messages = folder.appendingPathComponent("strace-\(name).err")
        _ = FileManager.default.createFile(atPath: messages.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = ["-f", "-e", "trace=\(filter)", "-o", log.path, "-p", String(pid)]
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

    /// Waits until the trace shows `marker` (a call known to come last) `count` times, then
    /// detaches.
    /// - Returns: the traced calls, one line each.
    func stop(after marker: String, count: Int = 1) -> [Substring] {
        let traced = { (try? String(contentsOf: self.log, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(30)
        while traced().components(separatedBy: marker).count - 1 < count, Date() < deadline { usleep(20_000) }
        // SIGKILL: a child started from a test's worker thread never sees SIGTERM or SIGINT;
        // the kernel detaches the traced process when strace dies.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return traced().split(separator: "\n")
    }
}
