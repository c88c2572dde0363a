import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Connects to an agent, giving up after `timeout` (nil waits as long as the system does).
    ///
    /// - Parameter anyListener: skips the check that a Unix socket's listener runs as this user;
    ///   only for a system daemon that serves every user (usbmuxd runs as root or its own user),
    ///   never for an agent.
    /// - Returns: a connected socket in blocking mode.
    /// - Throws: `SocketError` with a hint, e.g. `connect to /x.sock failed: No such file or
    ///   directory (is the agent running?)`; `errno` is `ETIMEDOUT` when the timeout passed.
    package static func connect(
        to endpoint: Endpoint, timeout: Duration?, anyListener: Bool = false
    ) throws(SocketError) -> Socket {
        let address = try resolve(endpoint, operation: "connect")
        let fd = socket(address.family)
        guard fd >= 0 else { throw .system("socket", target: endpoint.target) }
        let socket = Socket(fileDescriptor: fd)
        do throws(SocketError) {
            if case .tcp = endpoint { setNoDelay(fd) }
            try socket.setNonBlocking()
            let deadline = timeout.map { ContinuousClock.now + $0 }
            var result = address.withSockaddr { connect(fd, $0, $1) }
            // A Unix listener whose backlog is full answers a non-blocking connect with EAGAIN
            // where a blocking one would wait for room: wait the same way, until the deadline.
            while result != 0, Socket.errno == EAGAIN, case .unix = endpoint,
                deadline.map({ ContinuousClock.now < $0 }) ?? true
            {
                Thread.sleep(forTimeInterval: 0.005)
                result = address.withSockaddr { connect(fd, $0, $1) }
            }
            if result != 0 {
                let code = Socket.errno
                guard code == EINPROGRESS || code == EINTR else {
                    throw SocketError(
                        operation: "connect", target: endpoint.target, errno: code,
                        detail: connectHint(code, endpoint))
                }
                guard try socket.wait(for: Int16(POLLOUT), until: deadline) else {
                    throw SocketError(
                        operation: "connect", target: endpoint.target, errno: ETIMEDOUT,
                        detail: "no answer in time; is the agent busy or stopped?")
                }
                let pending = getsockopt(fd, SOL_SOCKET, SO_ERROR) ?? Socket.errno
                guard pending == 0 else {
                    throw SocketError(
                        operation: "connect", target: endpoint.target, errno: pending,
                        detail: connectHint(pending, endpoint))
                }
            }
            if case .unix(let path) = endpoint, !anyListener { try checkPeerIsThisUser(fd, path: path) }
            try socket.setNonBlocking(false)
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Refuses a Unix socket whose listener runs as another user, before a byte is sent: a
    /// planted socket must never receive a request (with its values) from this user.
    private static func checkPeerIsThisUser(_ fd: Int32, path: String) throws(SocketError) {
        let me = UInt32(geteuid())
        guard let peer = unixPeerUserID(fd) else {
            throw SocketError(
                operation: "connect", target: path, errno: Socket.errno,
                detail: "cannot tell which user listens on this socket, so nothing was sent")
        }
        guard peer == me else {
            throw SocketError(
                operation: "connect", target: path, errno: EPERM,
                detail:
                    "the socket's listener runs as uid \(peer), not as you (uid \(me)), so nothing was sent; it is not your agent: remove the socket or choose another --agent"
            )
        }
    }

    private static func connectHint(_ code: Int32, _ endpoint: Endpoint) -> String? {
        switch (code, endpoint) {
        case (ENOENT, .unix): "is the agent running?"
        case (ECONNREFUSED, .unix): "is the agent running? the socket file may be left over from one that stopped"
        case (ECONNREFUSED, .tcp): "is the agent running and listening on this port?"
        case (EACCES, .unix), (EPERM, .unix): "the socket belongs to another user; run as that user"
        case (EAGAIN, .unix): "the agent is not accepting connections fast enough; try again"
        case (ENETUNREACH, .tcp), (EHOSTUNREACH, .tcp): "check the address and the network"
        default: nil
        }
    }
}

extension Socket {
    /// Whether `path` fits in a Unix socket address on this system (the limit lives in the
    /// platform shim: 108 bytes with the final NUL on Linux, 104 on Apple systems).
    package static func fitsUnixPath(_ path: String) -> Bool {
        path.utf8.count < unixPathCapacity
    }
}
