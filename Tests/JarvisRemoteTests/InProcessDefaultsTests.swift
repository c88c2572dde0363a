import Foundation
import JarvisCore
import JarvisScanners
import Testing
import JarvisTestSupport

@testable import JarvisRemote

/// A host's own `UserDefaults` object sees what a client sets through the agent, at once.
@Suite(.serialized) struct InProcessDefaultsTests {
    @Test func theHostSeesEditsThroughItsOwnUserDefaults() throws {
        let folder = try TemporaryFolder()
        let suite = "jarvis-test-\(UUID().uuidString)"
        let host = try #require(UserDefaults(suiteName: suite))
        defer { host.removePersistentDomain(forName: suite) }
        host.set(1, forKey: "launch_count")
        host.set("Ada", forKey: "user_name")
        var options = JarvisAgent.Options(name: "in-process")
        options.runtimeDirectory = URL(fileURLWithPath: folder.path)
        options.journalFolder = URL(fileURLWithPath: folder.path + "/journal")
        let agent = try JarvisAgent.start(scanners: [DefaultsScanner.defaults(suites: [suite])], options: options)
        defer { agent.stop() }
        let client = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        func address(_ key: String) -> PreferenceAddress {
            PreferenceAddress(scanner: "defaults", container: suite, key: key)
        }

        #expect(try client.get(address("user_name")).value == "Ada")
        try client.set(address("launch_count"), to: 5)
        #expect(host.integer(forKey: "launch_count") == 5)
        #expect(host.object(forKey: "launch_count") is NSNumber)

        let when = Date(timeIntervalSince1970: 1_705_312_800)
        try client.set(address("last_open"), to: .date(when))
        #expect(host.object(forKey: "last_open") as? Date == when)

        try client.set(address("profile"), to: ["tags": ["swift", "linux"], "limits": ["daily": 3, "ratio": 1.5]])
        let profile = try #require(host.dictionary(forKey: "profile"))
        #expect(profile["tags"] as? [String] == ["swift", "linux"])

        try client.delete(address("user_name"))
        #expect(host.object(forKey: "user_name") == nil)

        // And the other way: the host writes, the agent reads it at once.
        host.set(true, forKey: "onboarding_done")
        #expect(try client.get(address("onboarding_done")).value == true)
    }

    @Test func theHostsOwnWritesReachAWatchingClient() throws {
        let folder = try TemporaryFolder()
        let suite = "jarvis-test-\(UUID().uuidString)"
        let host = try #require(UserDefaults(suiteName: suite))
        defer { host.removePersistentDomain(forName: suite) }
        host.set(1, forKey: "launch_count")
        var options = JarvisAgent.Options(name: "in-process-watch")
        options.runtimeDirectory = URL(fileURLWithPath: folder.path)
        options.journalFolder = URL(fileURLWithPath: folder.path + "/journal")
        let agent = try JarvisAgent.start(scanners: [DefaultsScanner.defaults(suites: [suite])], options: options)
        defer { agent.stop() }
        let client = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        _ = try client.watch(scanner: "defaults", container: suite)

        host.set(2, forKey: "launch_count")
        let notification = try #require(try client.nextChange(timeout: .seconds(10)))
        let change = try #require(notification.changes.first)
        #expect(change.kind == "updated")
        #expect(change.address.key == "launch_count")
        #expect(change.item?.value == 2)
        #expect(change.old?.value == 1)
    }
}
