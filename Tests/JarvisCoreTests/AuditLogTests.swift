import Foundation
import Testing

@testable import JarvisCore

@Suite struct AuditLogTests {
    private func record(_ key: String, _ action: AuditRecord.Action = .set, client: String? = "cli") -> AuditRecord {
        AuditRecord(
            action: action, client: .init(transport: "unix", peer: "pid 1", name: client),
            address: PreferenceAddress(scanner: "defaults", container: "app", key: key), oldRevision: nil,
            newRevision: Revision("0123456789abcdef"))
    }

    @Test func keepsTheNewestRecordsInOrder() {
        let log = AuditLog(capacity: 3)
        for index in 1...5 { log.append(record("k\(index)")) }
        #expect(log.records().map(\.address.key) == ["k3", "k4", "k5"])
        #expect(log.records().map(\.sequence) == [3, 4, 5])
        #expect(log.records(limit: 2).map(\.address.key) == ["k4", "k5"])
        #expect(log.totalCount == 5)
    }

    @Test func filtersByActionAddressAndClient() {
        let log = AuditLog()
        log.append(record("alpha"))
        log.append(record("beta", .delete))
        log.append(record("alpine", .reveal, client: "other"))
        #expect(log.records(matching: .init(action: .delete)).map(\.address.key) == ["beta"])
        #expect(log.records(matching: .init(key: "al*")).map(\.address.key) == ["alpha", "alpine"])
        #expect(log.records(matching: .init(client: "other")).count == 1)
        #expect(log.records(matching: .init(container: "elsewhere")).isEmpty)
    }

    @Test func neverHoldsMoreThanItsCapacity() {
        let log = AuditLog(capacity: 1000)
        for index in 0..<5000 { log.append(record("k\(index)")) }
        #expect(log.records().count == 1000)
        #expect(log.records().first?.address.key == "k4000")
    }
}
