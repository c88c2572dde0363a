import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A running `jarvis-agent` binary, as its discovery file describes it, with raw access to its
/// sockets and to its `/proc` entries (descriptors, memory).
struct AgentProcess {
    let process: Process
    let record: AgentRecord

    /// Starts the agent in the sandbox and reads its discovery file.
    init(_ sandbox: Sandbox, _ arguments: [String]) throws {
        process = try sandbox.startAgent(arguments)
        let file = sandbox.runtime.appendingPathComponent("\(process.processIdentifier).json")
        guard let record = AgentRecord(json: try JSONParser.parse(try Data(contentsOf: file))) else {
            throw HarnessError("the discovery file \(file.lastPathComponent) does not describe an agent")
        }
        self.record = record
    }

    var pid: Int32 { process.processIdentifier }
    var unix: Endpoint { .unix(path: record.socket ?? "") }

    func tcp() throws -> Endpoint {
        guard let text = record.tcp else { throw HarnessError("the agent has no TCP endpoint") }
        return try Endpoint(parsing: text)
    }

    /// Whether the host process is still alive (not a zombie).
    var isAlive: Bool {
        guard process.isRunning, kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return !status.contains("State:\tZ")
    }

    /// The agent's open descriptors, from /proc.
    var descriptorCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The agent's resident memory in KiB (VmRSS), from /proc.
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// A raw socket to the agent, for bytes no client library would send.
    func socket(_ endpoint: Endpoint? = nil) throws -> Socket {
        try Socket.connect(to: endpoint ?? unix, timeout: .seconds(10))
    }

    /// A fresh client asks `ping` and `list`; true when both answer correctly.
    func answersANewClient() -> Bool {
        guard let client = try? JarvisClient(endpoint: unix, clientName: "probe", timeout: .seconds(20)),
            (try? client.call("ping"))?["pong"] == .bool(true),
            let listing = try? client.list(), !listing.items.isEmpty
        else { return false }
        client.close()
        return true
    }
}

/// Reads whole lines from a raw socket with a deadline.
struct LineReader {
    let socket: Socket
    private var framer = LineFramerBox()

    init(_ socket: Socket) { self.socket = socket }

    /// The next line, or nil once the agent closed the connection (or reset it).
    mutating func next(timeout: Duration = .seconds(20)) throws -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let line = framer.next() { return line }
            guard try socket.wait(for: Int16(POLLIN), until: deadline) else {
                throw HarnessError("no line from the agent within \(timeout)")
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            } catch let error as SocketError where error.isWouldBlock {
                continue
            } catch let error as SocketError where error.errno == ECONNRESET {
                return nil
            }
            if count == 0 { return nil }
            framer.append(chunk[..<count])
        }
    }

    /// The next line parsed as JSON.
    mutating func nextJSON(timeout: Duration = .seconds(20)) throws -> JSONValue? {
        guard let line = try next(timeout: timeout) else { return nil }
        return try JSONParser.parse(line)
    }
}

/// Splits bytes at `\n` (answers are never over the limit a test cares about), looking at
/// each byte once, so a line of many megabytes costs what it holds.
struct LineFramerBox {
    private var pending: [UInt8] = []
    /// Bytes of `pending` known to hold no `\n`.
    private var searched = 0

    mutating func append(_ bytes: ArraySlice<UInt8>) { pending += bytes }

    mutating func next() -> [UInt8]? {
        guard let end = pending[searched...].firstIndex(of: 0x0A) else {
            searched = pending.count
            return nil
        }
        let line = Array(pending[..<end])
        pending.removeSubrange(...end)
        searched = 0
        return line
    }
}

extension Socket {
    /// Writes everything, ignoring a peer that hung up meanwhile (some inputs are meant to
    /// make the agent close).
    func send(_ bytes: [UInt8]) {
        try? writeAll(bytes, timeout: .seconds(20))
    }

    func send(_ text: String) { send(Array(text.utf8)) }
}

extension JSONValue {
    /// `error.code` of an answer, or nil for a success.
    var errorCode: Int64? { self["error"]?["code"]?.int64Value }
}
