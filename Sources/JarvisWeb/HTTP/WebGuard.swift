import JarvisCore

/// Who may talk to the page's server: the decisions of a local web server that another user
/// of the machine, or a page from another site, must not be able to use.
///
/// - `Host` must name the loopback address and this port (a DNS-rebound name is refused);
/// - everything lives under a random path, ``root`` (`/<random>/`), and the cookie is scoped
///   to it with `Path`: a browser sends cookies to every port of a host, so without it another
///   local user's server on another port of 127.0.0.1 would receive the cookie whenever this
///   user visited it (it cannot guess the path: it is as random as the secret);
/// - a state-changing request must carry this server's own `Origin`, and the live stream may
///   carry no other (`Sec-Fetch-Site`, when sent, must say same-origin);
/// - every request but the first one, which trades the one-time secret of the printed
///   address for the session cookie, must carry that cookie. The exchange is the one request
///   that may come from another site: the browser reaches it from the private file
///   `jarvis web` opens (a `file://` page), so it sends `Sec-Fetch-Site: cross-site`.
///
/// Pure and thread-safe: the secret's one use is the only state, behind a lock.
final class WebGuard: Sendable {
    /// The port the server listens on.
    let port: UInt16
    /// The cookie's value: what a browser that traded the secret sends back.
    let session: String
    /// The path everything is served under, `/<random>/`; the cookie's `Path`.
    let root: String
    private let secret: Locked<String?>

    /// The name of the session cookie.
    static let cookieName = "jarvis_web"

    /// A guard with a fresh secret and session.
    init(
        port: UInt16, secret: String = WebGuard.randomToken(), session: String = WebGuard.randomToken(),
        root: String = "/" + WebGuard.randomToken().prefix(32) + "/"
    ) {
        self.port = port
        self.session = session
        self.root = root
        self.secret = Locked(secret)
    }

    /// The one-time secret of the printed address, until it is used.
    var pendingSecret: String? { secret.current }

    /// The origins the page itself sends: `http://127.0.0.1:PORT` and `http://localhost:PORT`.
    var origins: Set<String> { ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"] }

    /// The `Host` values accepted.
    var hosts: Set<String> { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    /// What the request may do.
    enum Verdict: Equatable, Sendable {
        /// Serve it.
        case allow
        /// The secret was right: set the cookie and send the browser to ``root``.
        case exchange
        /// Refuse, with the status and a reason for a person.
        case refuse(Int, String)
    }

    /// Decides one request.
    func check(_ request: HTTPRequest) -> Verdict {
        guard let host = request.headers["host"], hosts.contains(host.lowercased()) else {
            return .refuse(421, "this server answers only to 127.0.0.1:\(port) (the Host header names another)")
        }
        guard request.path.hasPrefix(root) else {
            return .refuse(404, "nothing is here; open the address `jarvis web` printed")
        }
        let origin = request.headers["origin"]
        if let origin, !origins.contains(origin.lowercased()) {
            return .refuse(403, "requests from another site are refused (Origin \(origin))")
        }
        let changesState = request.method != "GET" && request.method != "HEAD"
        if changesState, origin == nil {
            return .refuse(403, "a request that changes something must come from the page (no Origin header)")
        }
        if !hasSession(request), request.method == "GET", request.path == root, let offered = request.query["k"],
            useSecret(offered)
        {
            return .exchange
        }
        if let site = request.headers["sec-fetch-site"], site != "same-origin", site != "none" {
            return .refuse(403, "requests from another site are refused (Sec-Fetch-Site \(site))")
        }
        if hasSession(request) { return .allow }
        return .refuse(
            403, "open the address `jarvis web` printed (its one-time secret is used up; run `jarvis web` again for a new one)")
    }

    /// Whether the request carries the session cookie.
    func hasSession(_ request: HTTPRequest) -> Bool {
        guard let header = request.headers["cookie"] else { return false }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces() == Self.cookieName else { continue }
            if Self.sameText(parts[1].trimmingSpaces(), session) { return true }
        }
        return false
    }

    /// The `Set-Cookie` value that gives a browser the session.
    var cookie: String { "\(Self.cookieName)=\(session); HttpOnly; SameSite=Strict; Path=\(root)" }

    private func useSecret(_ offered: String) -> Bool {
        secret.withLock { secret in
            guard let expected = secret, Self.sameText(offered, expected) else { return false }
            secret = nil
            return true
        }
    }

    /// Compares in time that does not depend on where the texts differ.
    static func sameText(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// 32 random bytes as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}
