// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore

    /// A child process with pipes to its standard input and output, read line by line.
    ///
    /// The benchmark runs the real binaries (`jarvis-agent`, `jarvis`, `redis-server`) as children
    /// so that client and server never share a process, an allocator or a CPU-time counter.
    final class ChildProcess {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var pending: [UInt8] = []

        /// Starts `executable` with `arguments`; `environment` entries are added to this process's.
        init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], quietErrors: Bool = true)
            throws
        {
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = input
            process.standardOutput = output
            if quietErrors { process.standardError = FileHandle.nullDevice }
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }

        /// The next line the child printed, waiting at most `timeout` seconds; nil at end of file.
        func readLine(timeout: Double = 30) throws -> String? {
            let descriptor = output.fileHandleForReading.fileDescriptor
            let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return line
                }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw BenchFailure("a child process printed nothing for \(Int(timeout)) s") }
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 1, Int32(max(1, left.inMilliseconds)))
                if ready <= 0 { continue }
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self) }
                pending.append(contentsOf: chunk[..<count])
            }
        }

        /// Reads lines until one starts with `prefix`; returns the rest of it.
        func value(after prefix: String, timeout: Double = 30) throws -> String {
            while let line = try readLine(timeout: timeout) {
                if line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
            }
            throw BenchFailure("a child process ended before printing '\(prefix)'")
        }

        /// Sends one line to the child's standard input.
        func send(_ line: String) {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }

        /// Closes the child's standard input (children in probe modes exit then).
        func closeInput() {
            try? input.fileHandleForWriting.close()
        }

        /// Asks the child to end (SIGTERM) and waits for it.
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        /// Runs a program (a path, or a name found on `PATH`) and returns its standard output.
        static func output(of program: String, _ arguments: [String]) throws -> String {
            let found = program.contains("/") ? URL(fileURLWithPath: program) : which(program)
            guard let executable = found else { throw BenchFailure("\(program) is not on PATH") }
            let child = try ChildProcess(executable, arguments)
            child.closeInput()
            var lines: [String] = []
            while let line = try child.readLine(timeout: 600) { lines.append(line) }
            child.process.waitUntilExit()
            return lines.joined(separator: "\n")
        }

        /// The program of that name on `PATH`, if any.
        static func which(_ program: String) -> URL? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(program)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            return nil
        }

        /// A sibling binary of this one (`jarvis`, `jarvis-agent`), built by the same `swift build`.
        static func sibling(_ name: String) throws -> URL {
            let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            let candidate = own.deletingLastPathComponent().appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
                throw BenchFailure("\(name) is not built beside jarvis-bench; run `swift build -c release` first")
            }
            return candidate
        }
    }
#endif
