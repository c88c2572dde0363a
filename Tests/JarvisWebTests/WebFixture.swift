import Foundation
import JarvisCore
import JarvisRemote
import JarvisScanners
import JarvisTestSupport
import JarvisTransport

@testable import JarvisWeb

#if canImport(Glibc)
    import Glibc
#endif

/// A real agent in this process (a memory scanner on a private runtime folder) and a real
/// `jarvis web` server on a free loopback port, spoken to over TCP as a browser would: the
/// session cookie, the server's own `Host` and `Origin`.
final class WebFixture {
    let folder: TemporaryFolder
    let memory: MemoryScanner
    let agent: JarvisAgent
    let server: WebServer

    init(contents: [String: [String: PreferenceValue]]) throws {
        folder = try TemporaryFolder()
        memory = MemoryScanner(id: "memory", contents: contents)
        var options = JarvisAgent.Options(
            name: "web-fixture", runtimeDirectory: URL(fileURLWithPath: folder.path + "/run"))
        options.journalFolder = URL(fileURLWithPath: folder.path + "/journal")
        agent = try JarvisAgent.start(configuration: .debug, scanners: [memory], options: options)
        server = try WebServer(port: 0, agent: agent.socketPath)
    }

    deinit {
        server.stop()
        agent.stop()
    }

    var root: String { server.router.guardian.root }
    var cookie: String { "\(WebGuard.cookieName)=\(server.router.guardian.session)" }

    /// An answer: its status, headers (lower-case names) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
    }

    /// Sends one request (path under the root) and reads the whole answer.
    func request(_ method: String, _ path: String, body: String? = nil, cookie sendCookie: Bool = true) throws -> Answer
    {
        let socket = try send(method, path, body: body, cookie: sendCookie)
        defer { socket.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = ContinuousClock.now + .seconds(30)
        while try socket.wait(for: Int16(POLLIN), until: deadline) {
            let count = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return try Self.parse(bytes)
    }

    func send(_ method: String, _ path: String, body: String? = nil, cookie sendCookie: Bool = true) throws -> Socket {
        let socket = try Socket.connect(to: .tcp(host: "127.0.0.1", port: server.port), timeout: .seconds(5))
        var head = "\(method) \(root)\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
        head += "Origin: http://127.0.0.1:\(server.port)\r\n"
        if sendCookie { head += "Cookie: \(cookie)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        head += "\r\n" + (body ?? "")
        try socket.writeAll(Array(head.utf8), timeout: .seconds(5))
        return socket
    }

    static func parse(_ bytes: [UInt8]) throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else {
            throw SocketError(operation: "HTTP", detail: "no whole head in \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }

    /// Opens a page: its id and first view.
    func openPage() throws -> (id: String, view: JSONValue) {
        let answer = try request("POST", "api/pages", body: "{}")
        guard answer.status == 200, let id = answer.json["page"]?.stringValue else {
            throw SocketError(
                operation: "open page", detail: "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (id, answer.json["view"] ?? .null)
    }

    /// Posts one intent; its answer.
    func intent(_ page: String, _ fields: JSONValue) throws -> Answer {
        try request("POST", "api/pages/\(page)/intent", body: JSONWriter.string(fields))
    }

    /// A window of the page's table.
    func rows(_ page: String, from: Int = 0, count: Int = 200) throws -> JSONValue {
        try request("GET", "api/pages/\(page)/rows?from=\(from)&count=\(count)").json
    }
}

/// A live stream read event by event.
final class WebStream {
    let socket: Socket
    private var pending: [UInt8] = []
    private var headRead = false

    init(_ socket: Socket) { self.socket = socket }

    deinit { socket.close() }

    /// The data of the next `view` event, parsed; nil when none came before `deadline`.
    func nextView(until deadline: ContinuousClock.Instant) throws -> JSONValue? {
        try next("view", until: deadline)
    }

    /// The data of the next event named `name`, parsed; nil when none came before `deadline`
    /// or the stream ended.
    func next(_ name: String, until deadline: ContinuousClock.Instant) throws -> JSONValue? {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if !headRead, let end = find([13, 10, 13, 10]) {
                pending.removeFirst(end + 4)
                headRead = true
            }
            if headRead, let end = find([10, 10]) {
                let event = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                guard event.split(separator: "\n").first == "event: \(name)" else { continue }
                let data = event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6) ?? ""
                return try JSONParser.parse(Array(data.utf8))
            }
            guard try socket.wait(for: Int16(POLLIN), until: deadline) else { return nil }
            let count = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            guard count > 0 else { return nil }
            pending += chunk[..<count]
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard pending.count >= needle.count else { return nil }
        return (0...(pending.count - needle.count)).first { Array(pending[$0..<($0 + needle.count)]) == needle }
    }
}
