import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

@Suite("Network agent adverts")
struct NetworkAgentAdvertTests {
    @Test func theTXTRecordCarriesNamePidBundleAndProtocol() throws {
        let advert = NetworkAgentAdvert(name: "Notes", pid: 321, bundleID: "com.example.notes")
        let pairs = BonjourTXTRecord.decode(advert.txtRecord())
        #expect(
            pairs == ["txtvers": "1", "name": "Notes", "pid": "321", "bundle": "com.example.notes", "proto": "1.0"])
        #expect(NetworkAgentAdvert(serviceName: "Notes (2)", txtPairs: pairs) == advert)
        #expect(!pairs.values.contains { $0.count == 64 }, "no token in the advert")
    }

    @Test func readingIsTolerantButNeedsAProtocolVersion() {
        #expect(NetworkAgentAdvert(serviceName: "x", txtPairs: ["name": "x"]) == nil)
        #expect(NetworkAgentAdvert(serviceName: "x", txtPairs: ["proto": "banana"]) == nil)
        let bare = NetworkAgentAdvert(serviceName: "Service", txtPairs: ["proto": "1.2", "pid": "no"])
        #expect(bare == NetworkAgentAdvert(name: "Service", pid: 0, bundleID: nil, protocolVersion: "1.2"))
    }

    @Test func longNamesAreShortenedToFit() {
        let advert = NetworkAgentAdvert(
            name: String(repeating: "n", count: 400), pid: 1, bundleID: String(repeating: "b", count: 300))
        let pairs = BonjourTXTRecord.decode(advert.txtRecord())
        #expect(pairs["name"]?.count == 200)
        #expect(pairs["bundle"] == nil)
        #expect(pairs["proto"] == "1.0")
    }

    func agent(_ service: String, name: String, bundle: String?, port: UInt16) -> NetworkAgent {
        NetworkAgent(
            serviceName: service, advert: NetworkAgentAdvert(name: name, pid: 1, bundleID: bundle),
            endpoint: .tcp(host: "192.168.1.20", port: port))
    }

    @Test func anAgentIsChosenByServiceNameNameOrBundleID() throws {
        let agents = [
            agent("Notes", name: "Notes", bundle: "com.example.notes", port: 1),
            agent("Notes (2)", name: "Notes", bundle: "com.example.notes", port: 2),
            agent("Timer", name: "Timer", bundle: nil, port: 3),
        ]
        #expect(
            try NetworkDiscovery.agent(named: "Notes (2)", among: agents).endpoint
                == .tcp(host: "192.168.1.20", port: 2))
        #expect(
            try NetworkDiscovery.agent(named: "Timer", among: agents).endpoint == .tcp(host: "192.168.1.20", port: 3))
        let several = try #require(throws: JarvisError.self) {
            try NetworkDiscovery.agent(named: "com.example.notes", among: agents)
        }
        #expect(several.code == .invalidParams)
        #expect(several.message.contains("Notes (2) (tcp://192.168.1.20:2)"))
        let none = try #require(throws: JarvisError.self) { try NetworkDiscovery.agent(named: "Mail", among: agents) }
        #expect(none.code == .notFound)
        #expect(none.message.contains("Notes, Notes (2), Timer"))
    }
}
