#if canImport(Glibc)
    import Glibc

    // The Linux half of the POSIX shim. `Socket+Darwin.swift` exposes exactly the same functions,
    // so the rest of the transport never needs `#if os(...)`.
    extension Socket {
        /// Bytes available in `sockaddr_un.sun_path`, including the terminating NUL.
        static let unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

        static var errno: Int32 { Glibc.errno }

        /// A stream socket that is close-on-exec, so child processes of the host never inherit it.
        static func socket(_ domain: Int32) -> Int32 {
            Glibc.socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }

        static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
            Glibc.bind(fd, address, length)
        }

        static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
            Glibc.listen(fd, backlog)
        }

        /// Accepts with close-on-exec set atomically.
        static func accept(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
        ) -> Int32 {
            // `accept4` is a GNU extension Swift's Glibc module does not expose; the flag is set
            // right after instead (a fork in that instant could inherit the descriptor).
            let client = Glibc.accept(fd, address, length)
            if client >= 0 { _ = Glibc.fcntl(client, F_SETFD, FD_CLOEXEC) }
            return client
        }

        static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
            Glibc.connect(fd, address, length)
        }

        static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            Glibc.read(fd, buffer, count)
        }

        /// Writes to a socket; `MSG_NOSIGNAL` turns a vanished peer into `EPIPE` instead of SIGPIPE.
        static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        }

        /// Writes to a pipe (never a socket: only `send` avoids SIGPIPE).
        static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            Glibc.write(fd, buffer, count)
        }

        static func close(_ fd: Int32) -> Int32 {
            Glibc.close(fd)
        }

        static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 {
            Glibc.shutdown(fd, how)
        }

        static let shutdownWrite = Int32(SHUT_WR)
        static let shutdownBoth = Int32(SHUT_RDWR)

        static func poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
            Glibc.poll(fds, nfds_t(count), timeout)
        }

        static func setsockopt(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Int32 {
            var value = value
            return Glibc.setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }

        static func getsockopt(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard Glibc.getsockopt(fd, level, name, &value, &length) == 0 else { return nil }
            return value
        }

        /// Sockets ignore SIGPIPE per call on Linux (see `send`), so there is nothing to set.
        static func disableSigPipe(_ fd: Int32) {}

        static func setNoDelay(_ fd: Int32) {
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        }

        static func getsockname(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
        ) -> Int32 {
            Glibc.getsockname(fd, address, length)
        }

        static func getpeername(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
        ) -> Int32 {
            Glibc.getpeername(fd, address, length)
        }

        /// Who is on the other end of a Unix socket, from the kernel's credentials.
        static func unixPeerDescription(_ fd: Int32) -> String {
            // `struct ucred` is hidden behind _GNU_SOURCE; this mirrors its layout.
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard Glibc.getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
                return "unix peer"
            }
            return "pid \(credentials.pid) uid \(credentials.uid)"
        }

        /// The user id of the process that made the listening end of a connected Unix socket
        /// (`SO_PEERCRED`), or nil when the kernel does not say.
        static func unixPeerUserID(_ fd: Int32) -> UInt32? {
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard Glibc.getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
            return UInt32(credentials.uid)
        }

        /// A non-blocking, close-on-exec pipe: `fds.0` reads, `fds.1` writes.
        static func pipe(_ fds: inout (Int32, Int32)) -> Int32 {
            var pair: [Int32] = [-1, -1]
            let result = Glibc.pipe(&pair)
            if result == 0 {
                for fd in pair {
                    _ = Glibc.fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = Glibc.fcntl(fd, F_SETFL, Glibc.fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
                }
            }
            fds = (pair[0], pair[1])
            return result
        }

        static func fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
            Glibc.fcntl(fd, command, value)
        }

        static func chmod(_ path: String, _ mode: UInt32) -> Int32 {
            Glibc.chmod(path, mode_t(mode))
        }

        static func unlink(_ path: String) -> Int32 {
            Glibc.unlink(path)
        }

        static func fileStatus(_ path: String) -> FileStatus? {
            var info = stat()
            guard Glibc.lstat(path, &info) == 0 else { return nil }
            return FileStatus(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), mode: UInt32(info.st_mode))
        }

        static func errorMessage(_ code: Int32) -> String {
            guard let message = strerror(code) else { return "error \(code)" }
            return String(cString: message)
        }

        static func unixAddress(_ path: String) -> sockaddr_un? {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < unixPathCapacity else { return nil }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            return address
        }

        private struct PeerCredentials {
            var pid: pid_t = 0
            var uid: uid_t = 0
            var gid: gid_t = 0
        }

        static func ipv4Address(_ host: in_addr, port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = host
            return address
        }

        static func ipv6Address(_ host: in6_addr, port: UInt16) -> sockaddr_in6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = host
            return address
        }
    }
#endif
