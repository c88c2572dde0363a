import JarvisTransport

/// Where usbmuxd listens, as libusbmuxd finds it: `USBMUXD_SOCKET_ADDRESS` when set
/// (`UNIX:/path`, or `HOST:PORT` with `[v6]:PORT` for IPv6), else `/var/run/usbmuxd`.
package enum UsbmuxAddress {
    /// The environment variable libusbmuxd reads, and so does this client.
    package static let variable = "USBMUXD_SOCKET_ADDRESS"
    /// The daemon's socket on macOS and Linux.
    package static let defaultPath = "/var/run/usbmuxd"

    /// The endpoint `environment` names.
    ///
    /// - Throws: ``UsbmuxError`` `.badAddress` when the variable is set but unreadable (libusbmuxd
    ///   would fall back to the default socket; a typo should not silently reach another daemon).
    package static func endpoint(environment: [String: String]) throws(UsbmuxError) -> Endpoint {
        guard let text = environment[variable], !text.isEmpty else { return .unix(path: defaultPath) }
        return try parse(text)
    }

    /// Reads `UNIX:/path`, `HOST:PORT` or `[v6]:PORT`; the host must be an IP address or `localhost`.
    package static func parse(_ text: String) throws(UsbmuxError) -> Endpoint {
        if text.hasPrefix("UNIX:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/") else {
                throw bad(text, "a Unix socket needs an absolute path, as in UNIX:/var/run/usbmuxd")
            }
            return .unix(path: path)
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0
        else {
            throw bad(text, "expected UNIX:/path or HOST:PORT, as in 127.0.0.1:27015")
        }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw bad(text, "expected a host before the port, as in 127.0.0.1:27015") }
        return .tcp(host: String(host), port: port)
    }

    private static func bad(_ text: String, _ detail: String) -> UsbmuxError {
        UsbmuxError(.badAddress, "\(variable)=\"\(text)\" is not an address usbmuxd can be reached at: \(detail)")
    }
}
