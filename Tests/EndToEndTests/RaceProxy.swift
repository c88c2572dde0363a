import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix socket that relays lines between a client and an agent and runs `beforeSet` just
/// before it passes the first `set` request on: another writer's change lands exactly between
/// a client's read and its write, every time, with the real client and the real agent.
final class RaceProxy: @unchecked Sendable {
    let path: String
    private let agentPath: String
    private let listener: Int32
    // Guards `fired`; the hook runs at most once.
    private let lock = NSLock()
    private var fired = false
    private let beforeSet: @Sendable () -> Void

    init(path: String, agentSocket: String, beforeSet: @escaping @Sendable () -> Void) throws {
        self.path = path
        agentPath = agentSocket
        self.beforeSet = beforeSet
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard listener >= 0, bound == 0, listen(listener, 8) == 0 else {
            throw HarnessError("the race proxy cannot listen on \(path): errno \(errno)")
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let agent = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.address(agentPath)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(agent, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in relay(from: client, to: agent, watching: true) }
            Thread.detachNewThread { [self] in relay(from: agent, to: client, watching: false) }
        }
    }

    private func relay(from source: Int32, to target: Int32, watching: Bool) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            pending += chunk[..<count]
            while let end = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[...end])
                pending.removeFirst(end + 1)
                if watching, String(decoding: line, as: UTF8.self).contains(#""method":"set""#), claim() {
                    beforeSet()
                }
                var sent = 0
                while sent < line.count {
                    let wrote = line[sent...].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                    guard wrote > 0 else { return }
                    sent += wrote
                }
            }
        }
        shutdown(target, Int32(SHUT_WR))
    }

    private func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if fired { return false }
        fired = true
        return true
    }
}
