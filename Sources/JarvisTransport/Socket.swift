import JarvisCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One socket file descriptor with thin, synchronous, throwing wrappers over POSIX calls.
///
/// A `Socket` is a value naming a descriptor; it does not close itself. Exactly one owner
/// calls `close()`, once, and only after every other thread has stopped using it: closing a
/// descriptor another thread is polling would let the number be reused underneath it.
package struct Socket: Sendable, Hashable {
    /// The descriptor this socket wraps.
    package let fileDescriptor: Int32

    /// Wraps a descriptor obtained elsewhere; the caller hands over ownership.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Accepts one pending connection.
    ///
    /// - Returns: the connected socket (close-on-exec, SIGPIPE-free) and a description of the
    ///   peer: `address:port` for TCP, the peer's process credentials for a Unix socket.
    /// - Throws: `SocketError`; on a non-blocking listener `isWouldBlock` means nothing is pending.
    package func accept() throws(SocketError) -> (Socket, peer: String) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Socket.accept(fileDescriptor, $0, &length) }
            }
            if fd >= 0 {
                let peer = Socket.describePeer(storage, fileDescriptor: fd)
                if Int32(storage.ss_family) != AF_UNIX { Socket.setNoDelay(fd) }
                return (Socket(fileDescriptor: fd), peer)
            }
            if Socket.errno != EINTR { throw .system("accept") }
        }
    }

    /// Reads up to `buffer.count` bytes, retrying when interrupted by a signal.
    ///
    /// - Returns: the number of bytes read; 0 means the peer closed its end (end of file).
    /// - Throws: `SocketError`; on a non-blocking socket `isWouldBlock` means no data yet.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> Int {
        while true {
            let count = Socket.read(fileDescriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if Socket.errno != EINTR { throw .system("read") }
        }
    }

    /// Writes as much of `bytes` as the socket takes now, without raising SIGPIPE.
    ///
    /// - Returns: the number of bytes written, which may be fewer than `bytes.count`.
    /// - Throws: `SocketError`; on a non-blocking socket `isWouldBlock` means the buffer is full.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let count = Socket.send(fileDescriptor, bytes.baseAddress, bytes.count)
            if count >= 0 { return count }
            if Socket.errno != EINTR { throw .system("write") }
        }
    }

    /// Writes all of `bytes`, waiting for room when the socket is non-blocking.
    ///
    /// - Parameter timeout: how long to wait for the peer to make room; nil waits for ever.
    /// - Throws: `SocketError`, with `errno` `ETIMEDOUT` when the peer stopped reading.
    package func writeAll(_ bytes: [UInt8], timeout: Duration? = nil) throws(SocketError) {
        var offset = 0
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while offset < bytes.count {
            // `Array.withUnsafeBytes` only rethrows untyped errors, so carry the outcome out.
            let outcome = bytes.withUnsafeBytes { raw in
                Result { () throws(SocketError) in try write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            switch outcome {
            case .success(let count):
                offset += count
            case .failure(let error):
                guard error.isWouldBlock else { throw error }
                guard try wait(for: Int16(POLLOUT), until: deadline) else {
                    throw SocketError(operation: "write", errno: ETIMEDOUT, detail: "the peer stopped reading")
                }
            }
        }
    }

    /// Switches non-blocking mode on or off.
    package func setNonBlocking(_ enabled: Bool = true) throws(SocketError) {
        let flags = Socket.fcntl(fileDescriptor, F_GETFL, 0)
        guard flags >= 0 else { throw .system("fcntl") }
        let updated = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard updated == flags || Socket.fcntl(fileDescriptor, F_SETFL, updated) == 0 else {
            throw .system("fcntl")
        }
    }

    /// Stops sending: the peer reads end of file once the bytes already written arrive.
    package func shutdownWrite() {
        _ = Socket.shutdown(fileDescriptor, Socket.shutdownWrite)
    }

    /// Stops both directions, waking any thread blocked reading this socket, without
    /// releasing the descriptor number (that is `close()`'s job).
    package func shutdown() {
        _ = Socket.shutdown(fileDescriptor, Socket.shutdownBoth)
    }

    /// Releases the descriptor. Call once, after no other thread can touch the socket.
    package func close() {
        // Retrying close after EINTR could close a descriptor another thread just opened.
        _ = Socket.close(fileDescriptor)
    }

    /// The local TCP port, which is how a listener bound to port 0 learns the port it got;
    /// nil for a Unix socket.
    package var boundPort: UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Socket.getsockname(fileDescriptor, $0, &length)
            }
        }
        guard result == 0 else { return nil }
        return Socket.port(of: storage)
    }

    /// Waits until the socket is ready for `events` (`POLLIN`, `POLLOUT`) or `deadline` passes.
    ///
    /// - Returns: false on timeout. Hang-ups and errors count as ready, so the next call reports them.
    package func wait(for events: Int16, until deadline: ContinuousClock.Instant?) throws(SocketError) -> Bool {
        var entry = pollfd(fd: fileDescriptor, events: events, revents: 0)
        while true {
            let timeout = deadline.map { PollTimeout.milliseconds(until: $0) } ?? -1
            let result = Socket.poll(&entry, 1, timeout)
            if result > 0 { return true }
            if result == 0 {
                if let deadline, ContinuousClock.now < deadline { continue }
                return false
            }
            if Socket.errno != EINTR { throw .system("poll") }
        }
    }
}

/// What `lstat` says about a path, in the same shape on every platform.
struct FileStatus: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var mode: UInt32

    /// True for a socket file; the type bits are the same on Linux and Apple platforms.
    var isSocket: Bool { mode & 0o170000 == 0o140000 }
    /// The permission bits alone, e.g. `0o600`.
    var permissions: UInt32 { mode & 0o7777 }
}

/// Converts durations into `poll` timeouts.
enum PollTimeout {
    /// Milliseconds from now until `deadline`, rounded up so a short wait never becomes a busy
    /// spin, clamped to what `poll` accepts.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        milliseconds(ContinuousClock.now.duration(to: deadline))
    }

    /// `duration` in whole milliseconds, rounded up and clamped to `0...Int32.max`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: max(0, duration.wholeMilliseconds(rounded: .up)))
    }
}
