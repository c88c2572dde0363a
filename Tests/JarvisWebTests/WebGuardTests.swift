import Testing

@testable import JarvisWeb

@Suite struct WebGuardTests {
    func request(
        _ method: String = "GET", _ path: String = "/app/", query: [String: String] = [:], headers: [String: String]
    ) -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, headers: headers, body: [])
    }

    @Test func theSecretWorksOnceAndGivesTheCookie() {
        let guardian = WebGuard(port: 4000, secret: "s3cret", session: "cookie", root: "/app/")
        let first = request(query: ["k": "s3cret"], headers: ["host": "127.0.0.1:4000"])
        #expect(guardian.check(first) == .exchange)
        #expect(guardian.check(first) != .exchange)
        #expect(guardian.pendingSecret == nil)
        #expect(guardian.cookie.contains("HttpOnly") && guardian.cookie.contains("SameSite=Strict"))
        let withCookie = request(headers: ["host": "127.0.0.1:4000", "cookie": "a=b; jarvis_web=cookie"])
        #expect(guardian.check(withCookie) == .allow)
    }

    @Test func aWrongSecretOrNoCookieIsRefused() {
        let guardian = WebGuard(port: 4000, secret: "s3cret", session: "cookie", root: "/app/")
        guard case .refuse(403, _) = guardian.check(request(query: ["k": "guess"], headers: ["host": "127.0.0.1:4000"]))
        else { Issue.record("a wrong secret was accepted"); return }
        guard case .refuse(403, _) = guardian.check(request(headers: ["host": "127.0.0.1:4000", "cookie": "jarvis_web=other"]))
        else { Issue.record("a wrong cookie was accepted"); return }
        #expect(guardian.pendingSecret == "s3cret")
    }

    @Test func aForeignHostIsRefusedEvenWithTheCookie() {
        let guardian = WebGuard(port: 4000, secret: "s", session: "cookie", root: "/app/")
        for host in ["evil.example:4000", "127.0.0.1:4001", "127.0.0.1", ""] {
            let verdict = guardian.check(request(headers: ["host": host, "cookie": "jarvis_web=cookie"]))
            guard case .refuse(421, _) = verdict else { Issue.record("host \(host) was accepted"); continue }
        }
        #expect(guardian.check(request(headers: ["host": "localhost:4000", "cookie": "jarvis_web=cookie"])) == .allow)
    }

    @Test func aForeignOriginIsRefusedAndAPostNeedsOne() {
        let guardian = WebGuard(port: 4000, secret: "s", session: "cookie", root: "/app/")
        let own = ["host": "127.0.0.1:4000", "cookie": "jarvis_web=cookie"]
        var foreign = own
        foreign["origin"] = "http://evil.example"
        guard case .refuse(403, _) = guardian.check(request("POST", "/app/api/pages", headers: foreign)) else {
            Issue.record("a foreign origin was accepted"); return
        }
        guard case .refuse(403, _) = guardian.check(request("GET", "/app/api/pages/x/events", headers: foreign)) else {
            Issue.record("a foreign origin's stream was accepted"); return
        }
        guard case .refuse(403, _) = guardian.check(request("POST", "/app/api/pages", headers: own)) else {
            Issue.record("a POST without Origin was accepted"); return
        }
        var same = own
        same["origin"] = "http://127.0.0.1:4000"
        #expect(guardian.check(request("POST", "/app/api/pages", headers: same)) == .allow)
        var crossSite = own
        crossSite["sec-fetch-site"] = "cross-site"
        guard case .refuse(403, _) = guardian.check(request(headers: crossSite)) else {
            Issue.record("a cross-site fetch was accepted"); return
        }
    }

    @Test func theCookieIsScopedToTheRandomPathAndNothingIsServedOutsideIt() {
        let guardian = WebGuard(port: 4000)
        #expect(guardian.root.count > 30 && guardian.root.hasPrefix("/") && guardian.root.hasSuffix("/"))
        #expect(guardian.root != WebGuard(port: 4000).root)
        #expect(guardian.cookie.hasSuffix("; Path=\(guardian.root)"))
        let session = "jarvis_web=\(guardian.session)"
        for path in ["/", "/api/pages", "/index.html", String(guardian.root.dropLast())] {
            guard case .refuse(404, _) = guardian.check(request("GET", path, headers: ["host": "127.0.0.1:4000", "cookie": session]))
            else { Issue.record("\(path) was served outside the root"); continue }
        }
        #expect(guardian.check(request("GET", guardian.root + "app.js", headers: ["host": "127.0.0.1:4000", "cookie": session])) == .allow)
    }

    @Test func theSecretMayArriveFromTheLaunchFileButNothingElseFromAnotherSite() {
        let guardian = WebGuard(port: 4000, secret: "s3cret", session: "cookie", root: "/app/")
        var headers = ["host": "127.0.0.1:4000", "sec-fetch-site": "cross-site"]
        #expect(guardian.check(request(query: ["k": "s3cret"], headers: headers)) == .exchange)
        headers["cookie"] = "jarvis_web=cookie"
        guard case .refuse(403, _) = guardian.check(request(headers: headers)) else {
            Issue.record("a cross-site request with the cookie was accepted"); return
        }
    }
    /// The secret and the session are agent tokens (256 random bits as 64 hex digits), and only
    /// the whole secret trades for the cookie: not a prefix, not one digit off, not twice.
    @Test func theSecretIsAnAgentTokenTradedOnceAndWhole() throws {
        let guardian = WebGuard(port: 4000)
        let secret = try #require(guardian.pendingSecret)
        for token in [secret, guardian.session] {
            #expect(token.count == 64 && token.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) })
        }
        #expect(secret != guardian.session)
        let headers = ["host": "127.0.0.1:4000"]
        let root = guardian.root
        let wrong = String(secret.dropLast()) + (secret.hasSuffix("0") ? "1" : "0")
        for offered in [String(secret.dropLast()), wrong, secret + "0", ""] {
            #expect(guardian.check(request("GET", root, query: ["k": offered], headers: headers)) != .exchange)
        }
        #expect(guardian.check(request("GET", root, query: ["k": secret], headers: headers)) == .exchange)
        #expect(guardian.pendingSecret == nil)
        #expect(guardian.check(request("GET", root, query: ["k": secret], headers: headers)) != .exchange)
    }
}
