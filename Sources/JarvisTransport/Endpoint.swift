/// Where an agent listens or a client connects: a Unix socket path or a TCP host and port.
///
/// The text form (`unix:///path`, `tcp://host:port`, `tcp://[::1]:port`) is what the CLI and
/// the runtime folder use, and `description` produces text that `init(parsing:)` reads back.
public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A Unix domain socket at an absolute path; the default, reachable only on this machine.
    case unix(path: String)
    /// A TCP socket; `host` is an IP literal or `localhost`, and port 0 asks for any free port.
    case tcp(host: String, port: UInt16)

    /// Reads `tcp://127.0.0.1:7777`, `tcp://[::1]:7777`, `unix:///path/agent.sock` or a bare
    /// absolute path.
    ///
    /// - Throws: `SocketError` with operation "parse endpoint", explaining the expected forms.
    package init(parsing text: String) throws(SocketError) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("unix://") {
            let path = String(trimmed.dropFirst("unix://".count))
            guard path.hasPrefix("/") else {
                throw Self.parseError(text, "a Unix socket needs an absolute path, as in unix:///tmp/agent.sock")
            }
            self = .unix(path: path)
        } else if trimmed.hasPrefix("tcp://") {
            self = try Self.parseTCP(String(trimmed.dropFirst("tcp://".count)), original: text)
        } else if trimmed.hasPrefix("/") {
            self = .unix(path: trimmed)
        } else {
            throw Self.parseError(text, "expected tcp://HOST:PORT, unix:///PATH or an absolute socket path")
        }
    }

    /// The text form, readable by `init(parsing:)`.
    public var description: String {
        switch self {
        case .unix(let path):
            "unix://\(path)"
        case .tcp(let host, let port):
            host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        }
    }

    /// The path or `host:port` alone, as error messages show it.
    package var target: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    private static func parseTCP(_ rest: String, original: String) throws(SocketError) -> Endpoint {
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw parseError(original, "an IPv6 address needs a closing ], as in tcp://[::1]:7777")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let afterBracket = rest[rest.index(after: close)...]
            guard afterBracket.hasPrefix(":") else {
                throw parseError(original, "expected a port after the address, as in tcp://[::1]:7777")
            }
            portText = afterBracket.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else {
                throw parseError(original, "expected a port, as in tcp://127.0.0.1:7777")
            }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            if host.contains(":") {
                throw parseError(original, "put an IPv6 address in brackets, as in tcp://[::1]:7777")
            }
        }
        guard !host.isEmpty else {
            throw parseError(original, "expected a host, as in tcp://127.0.0.1:7777")
        }
        guard let port = UInt16(portText) else {
            throw parseError(original, "the port must be a number from 0 to 65535")
        }
        return .tcp(host: String(host), port: port)
    }

    private static func parseError(_ text: String, _ detail: String) -> SocketError {
        SocketError(operation: "parse endpoint", target: "\"\(text)\"", detail: detail)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
