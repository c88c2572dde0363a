#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Creates a listening socket.
    ///
    /// For a Unix path: a leftover socket file from a crashed agent is removed, but only if it
    /// is a socket and nobody answers on it; any other file is left alone. The new file is made
    /// owner-only (0600) before `listen`, so no other user can connect even for an instant.
    /// Put it in a 0700 runtime folder as well. For TCP: `SO_REUSEADDR` is set so a restarted
    /// agent can rebind at once, and port 0 picks a free port (see `boundPort`).
    ///
    /// - Throws: `SocketError` naming the endpoint and what to change.
    package static func listen(on endpoint: Endpoint, backlog: Int32 = 128) throws(SocketError) -> Socket {
        let address = try resolve(endpoint, operation: "listen")
        if case .unix(let path) = endpoint {
            try removeStaleSocketFile(at: path)
        }
        let fd = socket(address.family)
        guard fd >= 0 else { throw .system("socket", target: endpoint.target) }
        let socket = Socket(fileDescriptor: fd)
        do throws(SocketError) {
            if case .tcp = endpoint {
                guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1) == 0 else {
                    throw SocketError.system("setsockopt", target: endpoint.target)
                }
            }
            let bound = address.withSockaddr { bind(fd, $0, $1) }
            guard bound == 0 else {
                throw SocketError.system("bind", target: endpoint.target, detail: bindHint(Socket.errno, endpoint))
            }
            if case .unix(let path) = endpoint {
                // Connections are refused until `listen`, so tightening the mode here leaves no window.
                guard chmod(path, 0o600) == 0 else {
                    let error = SocketError.system("chmod", target: path)
                    _ = unlink(path)
                    throw error
                }
            }
            guard Socket.listen(fd, backlog) == 0 else {
                throw SocketError.system("listen", target: endpoint.target)
            }
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Identity of the socket file at `path`, so it can later be removed only if still ours.
    static func socketFileIdentity(at path: String) -> FileStatus? {
        guard let status = fileStatus(path), status.isSocket else { return nil }
        return status
    }

    /// Removes the socket file at `path` if it is still the one described by `identity`,
    /// so stopping never deletes a socket another agent has since created at the same path.
    static func removeSocketFile(at path: String, ifStill identity: FileStatus) {
        guard let current = fileStatus(path), current.device == identity.device, current.inode == identity.inode else {
            return
        }
        _ = unlink(path)
    }

    private static func removeStaleSocketFile(at path: String) throws(SocketError) {
        guard let status = fileStatus(path) else { return }
        guard status.isSocket else {
            throw SocketError(
                operation: "listen", target: path, errno: EEXIST,
                detail: "that path is not a socket; remove it or choose another socket path"
            )
        }
        if let live = try? connect(to: .unix(path: path), timeout: .seconds(1)) {
            live.close()
            throw SocketError(
                operation: "listen", target: path, errno: EADDRINUSE,
                detail: "another agent is already listening there; stop it or choose another socket path"
            )
        }
        guard unlink(path) == 0 || Socket.errno == ENOENT else {
            throw .system("remove stale socket", target: path)
        }
    }

    private static func bindHint(_ code: Int32, _ endpoint: Endpoint) -> String? {
        switch (code, endpoint) {
        case (EADDRINUSE, .tcp): "another program uses this port; choose another port or 0 for any free port"
        case (EADDRINUSE, .unix): "another process created this socket file meanwhile; choose another path"
        case (EACCES, .tcp): "ports below 1024 need privileges; choose a higher port"
        case (EACCES, .unix): "the folder is not writable; choose a runtime folder you own"
        case (ENOENT, .unix): "the folder does not exist; create the runtime folder first"
        case (EADDRNOTAVAIL, .tcp): "this machine has no such address; use 127.0.0.1, ::1 or 0.0.0.0"
        default: nil
        }
    }
}
