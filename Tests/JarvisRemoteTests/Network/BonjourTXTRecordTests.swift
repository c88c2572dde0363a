import Foundation
import Testing

@testable import JarvisRemote

@Suite("Bonjour TXT records")
struct BonjourTXTRecordTests {
    @Test func encodesLengthPrefixedSortedPairs() throws {
        let bytes = try BonjourTXTRecord.encode(["pid": "42", "name": "Notes"])
        #expect(bytes == [10] + Array("name=Notes".utf8) + [6] + Array("pid=42".utf8))
    }

    @Test func anEmptyRecordIsOneEmptyString() throws {
        #expect(try BonjourTXTRecord.encode([:]) == [0])
        #expect(BonjourTXTRecord.decode([0]) == [:])
        #expect(BonjourTXTRecord.decode([]) == [:])
    }

    @Test func roundTripsUnicodeAndEqualsSignsInValues() throws {
        let pairs = ["name": "Café ☕︎", "query": "a=b=c", "empty": ""]
        #expect(BonjourTXTRecord.decode(try BonjourTXTRecord.encode(pairs)) == pairs)
    }

    @Test func refusesKeysAndEntriesDNSSDCannotCarry() {
        #expect(throws: BonjourTXTRecord.EncodingError.self) { try BonjourTXTRecord.encode(["": "x"]) }
        #expect(throws: BonjourTXTRecord.EncodingError.self) { try BonjourTXTRecord.encode(["a=b": "x"]) }
        #expect(throws: BonjourTXTRecord.EncodingError.self) { try BonjourTXTRecord.encode(["ké": "x"]) }
        #expect(throws: BonjourTXTRecord.EncodingError.self) {
            try BonjourTXTRecord.encode(["k": String(repeating: "x", count: 254)])
        }
        #expect(throws: Never.self) { try BonjourTXTRecord.encode(["k": String(repeating: "x", count: 253)]) }
    }

    @Test func decodesAsRFC6763Says() {
        // Keys are case-insensitive and the first wins; a bare key has an empty value; a
        // string with no key is skipped; a length past the end stops the record.
        var bytes: [UInt8] = [7] + Array("Key=one".utf8) + [7] + Array("key=two".utf8)
        bytes += [4] + Array("flag".utf8) + [4] + Array("=odd".utf8) + [0] + [9] + Array("cut".utf8)
        #expect(BonjourTXTRecord.decode(bytes) == ["key": "one", "flag": ""])
    }
}
