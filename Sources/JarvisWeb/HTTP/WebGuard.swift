import JarvisCore
import JarvisRemote

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
/// The secret and the session are ``AgentToken``s, the agent's own: made from the system's
/// cryptographic random source, and compared in constant time.
///
/// Pure and thread-safe: the secret's one use is the only state, behind a lock.
final class WebGuard: Sendable {
    /// The port the server listens on.
    let port: UInt16
    /// The cookie's value: what a browser that traded the secret sends back.
    var session: String { sessionToken.text }
    /// The path everything is served under, `/<random>/`; the cookie's `Path`.
    let root: String
    private let sessionToken: AgentToken
    private let secret: Locked<AgentToken?>

    /// The name of the session cookie.
    static let cookieName = "jarvis_web"

    /// A guard with a fresh secret and session.
    init(
        port: UInt16, secret: String = WebGuard.randomToken(), session: String = WebGuard.randomToken(),
        root: String = "/" + WebGuard.randomToken().prefix(32) + "/"
    ) {
        self.port = port
        sessionToken = AgentToken(session)
        self.root = root
        self.secret = Locked(AgentToken(secret))
    }

    /// The one-time secret of the printed address, until it is used.
    var pendingSecret: String? { secret.current?.text }

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
            if sessionToken.matches(String(parts[1].trimmingSpaces())) { return true }
        }
        return false
    }

    /// The `Set-Cookie` value that gives a browser the session.
    var cookie: String { "\(Self.cookieName)=\(session); HttpOnly; SameSite=Strict; Path=\(root)" }

    private func useSecret(_ offered: String) -> Bool {
        secret.withLock { secret in
            guard let expected = secret, expected.matches(offered) else { return false }
            secret = nil
            return true
        }
    }

    /// 256 random bits as 64 hex digits (``AgentToken/random()``).
    static func randomToken() -> String {
        AgentToken.random().text
    }
}
