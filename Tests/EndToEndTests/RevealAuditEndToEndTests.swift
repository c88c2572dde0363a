import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// Every secret value the real agent sends in clear is in `history`, once per item and per
/// delivery; a replay from the backlog never sends a rotated value in clear.
@Suite struct RevealAuditEndToEndTests {
    @Test func watchAndListAuditExactlyWhatTheySendAndReplaysStayMasked() throws {
        let sandbox = try Sandbox()
        let vault = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        for name in ["a", "b", "c"] { try Data("first-\(name)".utf8).write(to: vault.appendingPathComponent(name)) }
        let agent = try sandbox.startAgent(["--secrets-dir", vault.path, "--allow-reveal"])
        let records = try AgentDirectory.running(environment: sandbox.environment)
        let endpoint = try #require(records.first { $0.pid == agent.processIdentifier }?.endpoint)
        func reveals(_ client: JarvisClient, by name: String) throws -> Int {
            try client.history(Wire.HistoryParams(limit: 1000, action: "reveal")).records.filter { $0.client == name }.count
        }
        let admin = try JarvisClient(endpoint: endpoint, clientName: "admin")
        defer { admin.close() }

        // A listing of one item with reveal audits one item, not the whole container.
        let lister = try JarvisClient(endpoint: endpoint, clientName: "lister")
        defer { lister.close() }
        let page = try lister.listPage(Wire.ListParams(container: "vault", reveal: true, limit: 1))
        #expect(page.items.count == 1 && page.items[0].value != nil)
        #expect(try reveals(admin, by: "lister") == 1)

        // A revealing watch: each delivery of a value in clear is audited.
        let watcher = try JarvisClient(endpoint: endpoint, clientName: "watcher")
        defer { watcher.close() }
        _ = try watcher.watch(container: "vault", reveal: true)
        try admin.set(Wire.Place(scanner: "secrets", container: "vault", key: "a"), to: .string("second-a"))
        var sentInClear = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while sentInClear == 0, ContinuousClock.now < deadline {
            if let change = try watcher.nextChange(timeout: .seconds(1)) {
                for item in change.changes.flatMap({ [$0.item, $0.old].compactMap { $0 } }) where item.value != nil {
                    sentInClear += 1
                }
            }
        }
        #expect(sentInClear > 0)
        try eventuallyTrue("the watch's reveals to be audited") { try reveals(admin, by: "watcher") == sentInClear }

        // A resume from the start replays the rotated value masked, and audits nothing.
        let late = try JarvisClient(endpoint: endpoint, clientName: "late")
        defer { late.close() }
        _ = try late.watch(container: "vault", reveal: true, since: 0)
        var replayed: [PreferenceItem] = []
        while let change = try late.nextChange(timeout: .seconds(2)) {
            replayed += change.changes.flatMap { [$0.item, $0.old].compactMap { $0 } }
        }
        #expect(!replayed.isEmpty)
        #expect(replayed.allSatisfy { $0.value == nil && $0.isMasked })
        #expect(try reveals(admin, by: "late") == 0)
    }

    func eventuallyTrue(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what)")
    }
}
