// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisRemote

    /// A private `redis-server` on a Unix socket in a temporary folder, and `redis-benchmark`
    /// against it: the reference for what a socket round trip costs on this machine.
    final class RedisReference {
        private let server: ChildProcess
        private let folder: URL
        private let socket: String
        private let benchmark: URL

        /// Starts the server; nil when Redis is not installed.
        static func start() -> RedisReference? {
            guard let server = ChildProcess.which("redis-server"), let benchmark = ChildProcess.which("redis-benchmark")
            else {
                return nil
            }
            return try? RedisReference(server: server, benchmark: benchmark)
        }

        private init(server executable: URL, benchmark: URL) throws {
            folder = try Fixture.temporaryFolder("redis")
            socket = folder.appendingPathComponent("redis.sock").path
            self.benchmark = benchmark
            server = try ChildProcess(
                executable,
                ["--port", "0", "--unixsocket", socket, "--save", "", "--appendonly", "no", "--dir", folder.path])
            let deadline = ContinuousClock.now + .seconds(10)
            while !FileManager.default.fileExists(atPath: socket) {
                guard ContinuousClock.now < deadline else {
                    stop()
                    throw BenchFailure("redis-server did not create its socket")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }

        /// `redis-benchmark -t ping` requests per second (the `PING_MBULK` line of its CSV).
        func pingRate(clients: Int, requests: Int) throws -> Double {
            let output = try ChildProcess.output(
                of: benchmark.path, ["-s", socket, "-t", "ping", "-c", "\(clients)", "-n", "\(requests)", "--csv"])
            for line in output.split(separator: "\n") where line.hasPrefix("\"PING_MBULK\"") {
                let fields = line.split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
                if fields.count > 1, let rate = Double(fields[1]) { return rate }
            }
            throw BenchFailure("could not read redis-benchmark's output: \(output.prefix(200))")
        }

        /// Where the server listens, for a client of the benchmark's own (the raw line client
        /// sends `PING` as an inline command and reads the `+PONG` line).
        var endpoint: Endpoint { .unix(path: socket) }

        /// The server's process, whose CPU time is read beside the agent's.
        var pid: Int32 { server.pid }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }
#endif
