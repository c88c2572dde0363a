// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation

    /// Memory and CPU time of a process, read from `/proc` (Linux). Nil elsewhere, and the
    /// benchmarks that need it then say they were skipped.
    enum ProcFS {
        static var isAvailable: Bool { FileManager.default.fileExists(atPath: "/proc/self/status") }

        /// A `/proc/<pid>/status` field in bytes (`VmRSS`, `VmHWM`), for `pid` or this process.
        static func memory(_ field: String, pid: Int32? = nil) -> Int? {
            let path = "/proc/\(pid.map(String.init) ?? "self")/status"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 2, let kilobytes = Int(parts[1]) else { return nil }
                return kilobytes * 1024
            }
            return nil
        }

        /// User plus system CPU time of a process, in clock ticks.
        static func cpuTicks(pid: Int32) -> Int? {
            cpuTimes(pid: pid).map { $0.user + $0.system }
        }

        /// User and system CPU time of a process, in clock ticks (`/proc/<pid>/stat` fields 14, 15).
        static func cpuTimes(pid: Int32) -> (user: Int, system: Int)? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return nil }
            // Fields after the command name start at field 3 (state).
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return (user, system)
        }

        /// Clock ticks per second, to turn ticks into time.
        /// The threads of a process, from /proc/PID/task.
        static func threads(pid: Int32) -> Int? {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count
        }

        static var ticksPerSecond: Int { max(1, sysconf(Int32(_SC_CLK_TCK))) }
    }
#endif
