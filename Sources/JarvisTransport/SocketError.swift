#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed socket operation, worded so that a person reading it knows what to do next.
///
/// It is a struct rather than an enum so that new kinds of failure never break a caller's
/// `switch`; match on `errno` when the cause matters (for example `ETIMEDOUT`).
package struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed: "bind", "connect", "read", "parse endpoint"…
    package var operation: String
    /// What the call was aimed at: a socket path, `host:port` or the text being parsed.
    package var target: String?
    /// The system error, when the failure came from the operating system.
    package var errno: Int32?
    /// A hint about the likely cause or the fix, appended in parentheses.
    package var detail: String?

    /// Creates an error; pass `errno` when a system call failed.
    package init(operation: String, target: String? = nil, errno: Int32? = nil, detail: String? = nil) {
        self.operation = operation
        self.target = target
        self.errno = errno
        self.detail = detail
    }

    /// For example `connect to /x.sock failed: No such file or directory (is the agent running?)`.
    package var description: String {
        var text = operation
        if let target {
            let preposition = Self.preposition(for: operation)
            text += preposition.isEmpty ? " \(target)" : " \(preposition) \(target)"
        }
        text += " failed"
        if let errno {
            text += ": \(Socket.errorMessage(errno))"
        }
        if let detail {
            text += errno == nil ? ": \(detail)" : " (\(detail))"
        }
        return text
    }

    /// True when a non-blocking call had nothing to do yet; the caller should poll and retry.
    package var isWouldBlock: Bool {
        errno == EAGAIN || errno == EWOULDBLOCK
    }

    /// Reads the current `errno` of a system call that just failed.
    static func system(_ operation: String, target: String? = nil, detail: String? = nil) -> SocketError {
        SocketError(operation: operation, target: target, errno: Socket.errno, detail: detail)
    }

    private static func preposition(for operation: String) -> String {
        switch operation {
        case "connect", "write", "send": "to"
        case "read", "receive": "from"
        case "parse endpoint": ""
        default: "on"
        }
    }
}
