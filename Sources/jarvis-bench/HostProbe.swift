// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import Jarvis
    import JarvisCore
    import JarvisRemote

    /// `jarvis-bench --host-probe RUNTIME`: a host process that reports its resident memory
    /// before and after `JarvisAgent.start`, then idles (blocked reading standard input) until
    /// the parent closes it. Run as a child so that nothing of the benchmark is in its memory.
    enum HostProbe {
        static func serve(runtime: String) -> Int32 {
            // What any host has touched before it starts the agent: Foundation and the file system.
            _ = FileManager.default.fileExists(atPath: runtime)
            _ = ProcessInfo.processInfo.environment
            let before = ProcFS.memory("VmRSS") ?? 0
            let anonymousBefore = ProcFS.memory("RssAnon") ?? 0
            let threadsBefore = ProcFS.threads(pid: getpid()) ?? 0
            let start = ContinuousClock.now
            let agent: JarvisAgent
            do {
                agent = try JarvisAgent.start(
                    options: .init(name: "jarvis-bench-probe", runtimeDirectory: URL(fileURLWithPath: runtime)))
            } catch {
                FileHandle.standardError.write(Data("jarvis-bench: \(error.message)\n".utf8))
                return 1
            }
            let startSeconds = (ContinuousClock.now - start).inSeconds
            let after = ProcFS.memory("VmRSS") ?? 0
            let anonymousAfter = ProcFS.memory("RssAnon") ?? 0
            let threadsAfter = ProcFS.threads(pid: getpid()) ?? 0
            let report =
                "rss-before \(before)\nrss-after \(after)\nanon-before \(anonymousBefore)\nanon-after \(anonymousAfter)\n"
                + "start-ms \(startSeconds * 1000)\nthreads-before \(threadsBefore)\nthreads-after \(threadsAfter)\n"
                + "socket \(agent.socketPath)\n"
            FileHandle.standardOutput.write(Data(report.utf8))
            while let line = Swift.readLine() {
                if line == "rss" {
                    FileHandle.standardOutput.write(Data("rss \(ProcFS.memory("VmRSS") ?? 0)\n".utf8))
                } else if line == "threads" {
                    FileHandle.standardOutput.write(Data("threads \(ProcFS.threads(pid: getpid()) ?? 0)\n".utf8))
                }
            }
            agent.stop()
            return 0
        }
    }
#endif
