import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

@Suite("Network discovery")
struct NetworkDiscoveryTests {
    @Test func advertisingNeedsTCP() throws {
        let fixture = try AgentFixture(tcp: false)
        let error = try #require(throws: JarvisError.self) { try fixture.agent.advertiseOnNetwork(bundleID: "x") }
        #expect(error.code == .invalidParams)
        #expect(error.message.contains("must listen on TCP"))
    }

    @Test(
        .enabled(
            if: !NetworkDiscovery.isAvailable,
            "tests the refusal where Bonjour is missing (Linux); where it exists the macOS job builds the real browser and advertiser"
        ))
    func withoutBonjourEveryCallSaysSoAndHowToConnect() throws {
        let browsing = try #require(throws: JarvisError.self) { try NetworkDiscovery.browse(timeout: .seconds(1)) }
        #expect(browsing.code == .unavailable)
        #expect(browsing.message.contains("not available on this platform"))
        #expect(browsing.message.contains("--agent tcp://HOST:PORT --token TOKEN"))
        let fixture = try AgentFixture(tcp: true)
        let advertising = try #require(throws: JarvisError.self) {
            try fixture.agent.advertiseOnNetwork(bundleID: "com.example.notes")
        }
        #expect(advertising.code == .unavailable)
    }
}
