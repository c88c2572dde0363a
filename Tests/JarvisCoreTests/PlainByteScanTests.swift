import Testing

@testable import JarvisCore

/// The eight-bytes-at-a-time scan against a byte-by-byte one: every length around the word
/// size, every special byte at every position, and 20,000 seeded random runs.
@Suite struct PlainByteScanTests {
    private func naive(_ bytes: [UInt8], _ stop: PlainByteScan.Stop) -> Int {
        bytes.firstIndex { PlainByteScan.stops($0, stop) } ?? bytes.count
    }

    private func scan(_ bytes: [UInt8], _ stop: PlainByteScan.Stop) -> Int {
        bytes.withUnsafeBytes { PlainByteScan.plainPrefixLength($0, stop: stop) }
    }

    @Test func everySpecialByteIsFoundAtEveryPosition() {
        let specials: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xC3, 0xE2, 0xFF]
        for stop in [PlainByteScan.Stop.writerEscapes, .printableASCIIWithoutEscapes] {
            for length in 0...24 {
                let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                #expect(scan(plain, stop) == length)
                for position in 0..<length {
                    for special in specials {
                        var bytes = plain
                        bytes[position] = special
                        #expect(scan(bytes, stop) == naive(bytes, stop), "\(stop) \(length) \(position) \(special)")
                    }
                }
            }
        }
    }

    @Test func randomRunsAgreeWithTheByteByByteScan() {
        var state: UInt64 = 0x5CA7_0001
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        for _ in 0..<20_000 {
            let length = Int(next() % 40)
            // Mostly plain bytes, now and then any byte at all.
            let bytes = (0..<length).map { _ -> UInt8 in
                next() % 16 == 0 ? UInt8(truncatingIfNeeded: next()) : UInt8(0x20 + next() % 0x5F)
            }
            for stop in [PlainByteScan.Stop.writerEscapes, .printableASCIIWithoutEscapes] {
                #expect(scan(bytes, stop) == naive(bytes, stop), "\(bytes)")
            }
        }
    }
}
