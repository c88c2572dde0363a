import JarvisCore
import Testing

@testable import JarvisScanners

/// The iCloud store's limits as Apple documents them: keys of at most 64 bytes of UTF-8,
/// 1024 keys, 1 MB for all values; a write past them is refused before it reaches the store.
@Suite struct UbiquitousKeyValueLimitsTests {
    @Test func keysUpToSixtyFourBytesAreAccepted() throws {
        try UbiquitousKeyValueLimits.check(key: "theme")
        try UbiquitousKeyValueLimits.check(key: String(repeating: "k", count: 64))
        // 16 emoji are 64 bytes of UTF-8.
        try UbiquitousKeyValueLimits.check(key: String(repeating: "😀", count: 16))
    }

    @Test func longerKeysAreRefusedCountingUTF8Bytes() {
        #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.check(key: String(repeating: "k", count: 65))
        }
        // 17 emoji: 34 UTF-16 units (which the old check allowed) but 68 bytes of UTF-8.
        let wide = String(repeating: "😀", count: 17)
        #expect(wide.utf16.count <= 128)
        let error = #expect(throws: JarvisError.self) { try UbiquitousKeyValueLimits.check(key: wide) }
        #expect(error?.code == .invalidParams)
        #expect(error?.message.contains("68") == true)
        // 100 "é": 100 UTF-16 units, 200 bytes.
        #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.check(key: String(repeating: "é", count: 100))
        }
    }

    @Test func anEmptyKeyIsRefused() {
        #expect(throws: JarvisError.self) { try UbiquitousKeyValueLimits.check(key: "") }
    }

    @Test func writesOverTheQuotaAreRefusedBeforeTheStore() throws {
        try UbiquitousKeyValueLimits.checkQuota(key: "a", size: 100, sizes: ["b": 1000])
        // One value over 1 MB.
        #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.checkQuota(key: "a", size: (1 << 20) + 1, sizes: [:])
        }
        // The total over 1 MB, counting the replaced value once.
        let half = 600_000
        #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.checkQuota(key: "a", size: half, sizes: ["b": half])
        }
        try UbiquitousKeyValueLimits.checkQuota(key: "b", size: half, sizes: ["b": half, "c": 100])
        // A 1025th key.
        let full = Dictionary(uniqueKeysWithValues: (0..<1024).map { ("k\($0)", 1) })
        let error = #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.checkQuota(key: "new", size: 1, sizes: full)
        }
        #expect(error?.message.contains("1024") == true)
        try UbiquitousKeyValueLimits.checkQuota(key: "k5", size: 1, sizes: full)
    }

    @Test func aViolationTheSystemReportsFailsTheWriteAndSynchronizingHappensOnce() throws {
        let reports = UbiquitousKeyValueReports()
        #expect(reports.shouldSynchronizeBeforeRead())
        #expect(!reports.shouldSynchronizeBeforeRead())
        #expect(!reports.shouldSynchronizeBeforeRead())
        let before = reports.quotaViolations
        try reports.checkNoViolation(since: before, key: "a")
        reports.noteQuotaViolation()
        let error = #expect(throws: JarvisError.self) { try reports.checkNoViolation(since: before, key: "a") }
        #expect(error?.code == .storage)
    }
}
