#if canImport(Darwin)
    import Darwin

    // The Apple half of the POSIX shim. `Socket+Glibc.swift` exposes exactly the same functions,
    // so the rest of the transport never needs `#if os(...)`.
    extension Socket {
        /// Bytes available in `sockaddr_un.sun_path`, including the terminating NUL.
        static let unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

        static var errno: Int32 { Darwin.errno }

        /// A stream socket that is close-on-exec and never raises SIGPIPE.
        static func socket(_ domain: Int32) -> Int32 {
            let fd = Darwin.socket(domain, SOCK_STREAM, 0)
            if fd >= 0 { prepare(fd) }
            return fd
        }

        static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
            Darwin.bind(fd, address, length)
        }

        static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
            Darwin.listen(fd, backlog)
        }

        /// Accepts, then marks the new socket close-on-exec and SIGPIPE-free.
        static func accept(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
        ) -> Int32 {
            let client = Darwin.accept(fd, address, length)
            if client >= 0 { prepare(client) }
            return client
        }

        static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
            Darwin.connect(fd, address, length)
        }

        static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            Darwin.read(fd, buffer, count)
        }

        /// Writes to a socket; `SO_NOSIGPIPE` (set at creation) turns a vanished peer into `EPIPE`.
        static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            Darwin.send(fd, buffer, count, 0)
        }

        /// Writes to a pipe (never a socket: only `send` avoids SIGPIPE).
        static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            Darwin.write(fd, buffer, count)
        }

        static func close(_ fd: Int32) -> Int32 {
            Darwin.close(fd)
        }

        static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 {
            Darwin.shutdown(fd, how)
        }

        static let shutdownWrite = Int32(SHUT_WR)
        static let shutdownBoth = Int32(SHUT_RDWR)

        static func poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
            Darwin.poll(fds, nfds_t(count), timeout)
        }

        static func setsockopt(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Int32 {
            var value = value
            return Darwin.setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }

        static func getsockopt(_ fd: Int32, _ level: Int32, _ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard Darwin.getsockopt(fd, level, name, &value, &length) == 0 else { return nil }
            return value
        }

        /// Darwin has no `MSG_NOSIGNAL`; the per-socket option does the same job.
        static func disableSigPipe(_ fd: Int32) {
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        }

        static func setNoDelay(_ fd: Int32) {
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        }

        static func getsockname(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
        ) -> Int32 {
            Darwin.getsockname(fd, address, length)
        }

        static func getpeername(
            _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
        ) -> Int32 {
            Darwin.getpeername(fd, address, length)
        }

        /// Who is on the other end of a Unix socket, from the kernel's credentials.
        static func unixPeerDescription(_ fd: Int32) -> String {
            var user: uid_t = 0
            var group: gid_t = 0
            guard Darwin.getpeereid(fd, &user, &group) == 0 else { return "unix peer" }
            return "uid \(user)"
        }

        /// The effective user id of the peer of a connected Unix socket (`getpeereid`), or nil
        /// when the kernel does not say.
        static func unixPeerUserID(_ fd: Int32) -> UInt32? {
            var user: uid_t = 0
            var group: gid_t = 0
            guard Darwin.getpeereid(fd, &user, &group) == 0 else { return nil }
            return UInt32(user)
        }

        /// A non-blocking, close-on-exec pipe: `fds.0` reads, `fds.1` writes.
        static func pipe(_ fds: inout (Int32, Int32)) -> Int32 {
            var pair: [Int32] = [-1, -1]
            let result = Darwin.pipe(&pair)
            if result == 0 {
                for fd in pair {
                    _ = Darwin.fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = Darwin.fcntl(fd, F_SETFL, Darwin.fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
                }
            }
            fds = (pair[0], pair[1])
            return result
        }

        static func fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
            Darwin.fcntl(fd, command, value)
        }

        static func chmod(_ path: String, _ mode: UInt32) -> Int32 {
            Darwin.chmod(path, mode_t(mode))
        }

        static func unlink(_ path: String) -> Int32 {
            Darwin.unlink(path)
        }

        static func fileStatus(_ path: String) -> FileStatus? {
            var info = stat()
            guard Darwin.lstat(path, &info) == 0 else { return nil }
            // `dev_t` is a signed 32-bit value here; keep its bits rather than trap on a negative one.
            return FileStatus(
                device: UInt64(UInt32(bitPattern: info.st_dev)), inode: UInt64(info.st_ino), mode: UInt32(info.st_mode)
            )
        }

        static func errorMessage(_ code: Int32) -> String {
            guard let message = strerror(code) else { return "error \(code)" }
            return String(cString: message)
        }

        static func unixAddress(_ path: String) -> sockaddr_un? {
            var address = sockaddr_un()
            address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < unixPathCapacity else { return nil }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            return address
        }

        static func ipv4Address(_ host: in_addr, port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = host
            return address
        }

        static func ipv6Address(_ host: in6_addr, port: UInt16) -> sockaddr_in6 {
            var address = sockaddr_in6()
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = host
            return address
        }

        private static func prepare(_ fd: Int32) {
            _ = Darwin.fcntl(fd, F_SETFD, FD_CLOEXEC)
            disableSigPipe(fd)
        }
    }
#endif
