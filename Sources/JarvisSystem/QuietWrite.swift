#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#else
    import Musl
#endif

/// Writes to a descriptor that may be a pipe whose reader has gone (a host's standard error
/// piped to a log collector that quit) without raising SIGPIPE in the host: a library must
/// never end a program that keeps SIGPIPE's default, whatever the other end did.
///
/// Sockets need none of this (the transport sends with `MSG_NOSIGNAL` or `SO_NOSIGPIPE`);
/// a pipe has no such flag, so SIGPIPE is blocked on the calling thread for the write (the
/// signal a write raises goes to the thread that wrote), the one it raised is taken while
/// still blocked, and the thread's mask is put back.
package enum QuietWrite {
    /// Writes all of `bytes` to `descriptor`; false when the reader has gone or the write
    /// failed otherwise (nothing is raised, nothing is retried but an interrupted write).
    @discardableResult
    package static func all(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var saved = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        // One already waiting (sent by someone else) is left for the host to see.
        let pendingBefore = isPending()
        var written = 0
        var brokenPipe = false
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                SystemCall.write(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                brokenPipe = result < 0 && errno == EPIPE
                break
            }
        }
        if brokenPipe, !pendingBefore, isPending() {
            var taken: Int32 = 0
            sigwait(&pipeSignal, &taken)
        }
        return written == bytes.count
    }

    /// Writes `text` to the process's standard error, quietly as ``all(_:to:)``.
    @discardableResult
    package static func standardError(_ text: String) -> Bool {
        all(Array(text.utf8), to: 2)
    }

    private static func isPending() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return sigismember(&pending, SIGPIPE) == 1
    }
}
