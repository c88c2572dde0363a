import JarvisCore
import Testing

@testable import JarvisScanners

/// The iCloud store's key limit is counted in UTF-16 units, and a key over it is refused with
/// an error instead of reaching the store (which would raise an exception in the host).
@Suite struct UbiquitousKeyValueLimitsTests {
    @Test func keysUpToTheLimitAreAccepted() throws {
        try UbiquitousKeyValueLimits.check(key: "theme")
        try UbiquitousKeyValueLimits.check(key: String(repeating: "k", count: 128))
    }

    @Test func longerKeysAreRefusedCountingUTF16Units() {
        #expect(throws: JarvisError.self) {
            try UbiquitousKeyValueLimits.check(key: String(repeating: "k", count: 129))
        }
        // 65 characters outside the Basic Multilingual Plane are 130 UTF-16 units.
        let wide = String(repeating: "😀", count: 65)
        #expect(wide.count == 65)
        let error = #expect(throws: JarvisError.self) { try UbiquitousKeyValueLimits.check(key: wide) }
        #expect(error?.code == .invalidParams)
        #expect(error?.message.contains("130") == true)
    }

    @Test func anEmptyKeyIsRefused() {
        #expect(throws: JarvisError.self) { try UbiquitousKeyValueLimits.check(key: "") }
    }
}
