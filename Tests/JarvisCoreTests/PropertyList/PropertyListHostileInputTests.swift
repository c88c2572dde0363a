import Foundation
import JarvisTestSupport
import Testing

@testable import JarvisCore

/// The issue's "bad input and limits" list, for the codec: every input gives a
/// ``PropertyListError`` quickly, never a trap, a hang or a balloon.
@Suite struct PropertyListHostileInputTests {
    /// A binary plist from raw objects (4-byte offsets, 2-byte references).
    static func binary(_ objects: [[UInt8]], top: Int = 0, offsetSize: UInt8 = 4, referenceSize: UInt8 = 2) -> [UInt8] {
        BinaryPlistBytes.from(objects, top: top, offsetSize: offsetSize, referenceSize: referenceSize)
    }

    private func expectFailure(
        _ bytes: [UInt8], _ code: PropertyListError.Code, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try PropertyListCodec.read(bytes)
            Issue.record("read without an error", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test func everyTruncationOfABinaryFileIsAnError() throws {
        let whole = try PropertyListCodec.write(PropertyListCodecTests.everything, as: .binary)
        for length in 0..<whole.count {
            #expect(throws: PropertyListError.self) { try PropertyListCodec.read(Array(whole[..<length])) }
        }
    }

    @Test func everyTruncationOfAnXMLFileIsAnErrorOrTheSameValue() throws {
        guard case .dictionary(var members) = PropertyListCodecTests.everything else { return }
        members.removeLast()
        members[1].value = .string("text")
        let whole = try PropertyListCodec.write(.dictionary(members), as: .xml)
        let complete = try PropertyListCodec.read(whole).value
        for length in 0..<whole.count {
            // Cut inside the trailing line feed, the file still holds the whole value.
            if let read = try? PropertyListCodec.read(Array(whole[..<length])) {
                #expect(length == whole.count - 1 && read.value == complete)
            }
        }
    }

    @Test func anArrayThatContainsItselfIsACycle() {
        expectFailure(Self.binary([[0xA1, 0, 0]]), .cycle)
        // A dictionary whose value is the dictionary, two objects apart.
        expectFailure(Self.binary([[0xD1, 0, 1, 0, 2], [0x51, 0x6B], [0xA1, 0, 0]]), .cycle)
    }

    @Test func sharedObjectsExpandingBeyondTheLimitAreRefused() throws {
        // Each of 30 arrays holds 15 references to the next: 15^30 elements from 1 KB.
        var objects: [[UInt8]] = []
        for index in 0..<30 {
            var object: [UInt8] = [0xAF, 0x10, 15]
            for _ in 0..<15 { object += [UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)] }
            objects.append(object)
        }
        objects.append([0x51, 0x61])
        let start = ContinuousClock.now
        expectFailure(Self.binary(objects), .tooLarge)
        #expect(ContinuousClock.now - start < .seconds(10))
        // Shared objects within the limit are read, each as often as referred to.
        let small = PropertyListLimits(maxBytes: 1 << 20)
        var reader = BinaryPropertyListReader(Self.binary([[0xA2, 0, 1, 0, 1], [0x51, 0x61]]), limits: small)
        #expect(try reader.read() == .array([.string("a"), .string("a")]))
    }

    /// Issue 47 item 1: a 61 KB file whose array refers to one 60 KB data object 270 times
    /// expands to 15.8 MiB (270 × (61,440 + 32) + 32 + 8 × 270 bytes); it is refused before
    /// anything is made, the message naming that size. The same object referred to twice is read.
    @Test func aReferenceBombIsRefusedNamingItsExpandedSize() throws {
        func file(references: Int) -> [UInt8] {
            let data: [UInt8] = [0x4F, 0x11, 0xF0, 0x00] + [UInt8](repeating: 0xAB, count: 61_440)
            let array: [UInt8] = [0xAF, 0x11, UInt8(references >> 8), UInt8(references & 0xFF)]
            return Self.binary([array + (0..<references).flatMap { _ in [0, 1] as [UInt8] }, data])
        }
        let bomb = file(references: 270)
        #expect(bomb.count < 63_000)
        do {
            _ = try PropertyListCodec.read(bomb)
            Issue.record("a 61 KB file that expands to 15.8 MiB was read")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("would expand to 15.8 MiB"), "\(error.message)")
        }
        let shared = try PropertyListCodec.read(file(references: 2)).value
        guard case .array(let elements) = shared else { throw PropertyListError(.damaged, "not an array") }
        #expect(elements.count == 2 && elements.allSatisfy { $0 == .data([UInt8](repeating: 0xAB, count: 61_440)) })
    }

    @Test func depthIsBounded() throws {
        func nested(_ depth: Int) -> [UInt8] {
            Array(
                ("<plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
                    + String(repeating: "</array>", count: depth) + "</plist>").utf8)
        }
        // 200 levels is within the limit (that of every value Jarvis serves); deeper is refused.
        #expect(try PropertyListCodec.read(nested(200)).format == .xml)
        expectFailure(nested(PropertyListLimits.standard.maxDepth + 2), .tooDeep)
        expectFailure(nested(100_000), .tooDeep)
        // Binary: object i is an array holding object i + 1.
        let objects = (0..<100_000).map { index -> [UInt8] in
            index == 99_999 ? [0xA0] : [0xA1] + (0..<4).map { UInt8(truncatingIfNeeded: (index + 1) >> (24 - 8 * $0)) }
        }
        expectFailure(Self.binary(objects, referenceSize: 4), .tooDeep)
    }

    @Test func badOffsetsSizesAndCountsAreDamage() throws {
        let good = Self.binary([[0xA1, 0, 1], [0x10, 7]])
        #expect(try PropertyListCodec.read(good).value == .array([.integer(7)]))
        var bytes = good
        // An offset into the offset table itself.
        bytes[bytes.count - 32 - 8 + 3] = UInt8(bytes.count - 40)
        expectFailure(bytes, .damaged)
        // Offset and reference sizes the format does not have.
        for (offsetSize, referenceSize) in [(9, 2), (4, 0), (16, 2), (0, 1)] {
            bytes = good
            bytes[bytes.count - 26] = UInt8(offsetSize)
            bytes[bytes.count - 25] = UInt8(referenceSize)
            expectFailure(bytes, .damaged)
        }
        // An integer of 2^7 bytes, a reference to an object that does not exist.
        expectFailure(Self.binary([[0xA1, 0, 1], [0x17, 7]]), .damaged)
        expectFailure(Self.binary([[0xA1, 0, 9], [0x10, 7]]), .damaged)
        // An array claiming 2^63 elements; a count of objects beyond the file; a top object beyond them.
        expectFailure(Self.binary([[0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]), .damaged)
        bytes = good
        bytes[bytes.count - 24] = 0x7F
        expectFailure(bytes, .damaged)
        bytes = good
        bytes[bytes.count - 9] = 5
        expectFailure(bytes, .damaged)
        // A lone surrogate, a set, a null.
        expectFailure(Self.binary([[0x61, 0xD8, 0x00]]), .damaged)
        expectFailure(Self.binary([[0xC0]]), .unsupported)
        expectFailure(Self.binary([[0x00]]), .unsupported)
    }

    /// Issue 45 item 7: offsets and references of any width from 1 to 8 bytes are read, as
    /// CoreFoundation, plistlib and libplist read them (libplist's own `off3bytes.bplist` …
    /// `dictref7bytes.bplist` are such files: `{A: B}` with 3-, 5-, 6- and 7-byte widths).
    @Test(arguments: 1...8) func everyWidthFromOneToEightIsRead(width: Int) throws {
        func reference(_ number: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: number >> (8 * (size - 1 - $0))) }
        }
        for (offsetSize, referenceSize) in [(width, 1), (1, width), (width, width)] {
            let objects = [
                [0xD1] + reference(1, referenceSize) + reference(2, referenceSize), [0x51, 0x41], [0x51, 0x42],
            ]
            let bytes = Self.binary(objects, offsetSize: UInt8(offsetSize), referenceSize: UInt8(referenceSize))
            #expect(
                try PropertyListCodec.read(bytes).value == .dictionary([PropertyList.Member("A", .string("B"))]),
                "offsets of \(offsetSize) bytes, references of \(referenceSize)")
            // The top-level key alone, through the offset table, as a write's check reads it.
            var reader = BinaryPropertyListReader(bytes, limits: .standard)
            #expect(try reader.value(forKey: "A") == .string("B"))
        }
    }

    @Test func brokenXMLIsDamage() {
        for text in [
            "<plist version=\"1.0\"><dict><key>a</key></dict></plist>",
            "<plist version=\"1.0\"><dict><key>a</key><string>x</dict></plist>",
            "<plist version=\"1.0\"><string>x</string>",
            "<plist version=\"1.0\"><integer>18446744073709551616</integer></plist>",
            "<plist version=\"1.0\"><integer>1.5</integer></plist>",
            "<plist version=\"1.0\"><date>yesterday</date></plist>",
            "<plist version=\"1.0\"><data>@@@@</data></plist>",
            "<plist version=\"1.0\"><string>&bogus;</string></plist>",
            "<plist version=\"1.0\"><unknown/></plist>",
            "<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><string>&a;</string></plist>",
            "<plist version=\"1.0\"><string>x</string></plist>trailing",
        ] {
            expectFailure(Array(text.utf8), .damaged)
        }
        // Text that is not UTF-8.
        expectFailure(
            Array("<plist version=\"1.0\"><string>".utf8) + [0xFF, 0xFE] + Array("</string></plist>".utf8), .damaged)
        expectFailure(Array("<plist><dict><key>a</key><true/><key>a</key><true/></dict></plist>".utf8), .duplicateKey)
        expectFailure(
            Array("<plist><dict><key>\u{F1}</key><true/><key>n\u{303}</key><true/></dict></plist>".utf8), .duplicateKey)
        expectFailure(Array("{ a = b; }".utf8), .unknownFormat)
        expectFailure(Array("bplist15xxxx".utf8), .unknownFormat)
        expectFailure([], .damaged)
    }

    @Test func memoryIsBoundedInBytes() {
        let text = Array(
            ("<plist><array>" + String(repeating: "<string>0123456789</string>", count: 10_000) + "</array></plist>")
                .utf8)
        var reader = XMLPropertyListReader(text, limits: PropertyListLimits(maxBytes: 100_000))
        #expect(throws: PropertyListError.self) { try reader.read() }
        var enough = XMLPropertyListReader(text, limits: PropertyListLimits(maxBytes: 10_000_000))
        #expect((try? enough.read()) != nil)
    }

    @Test func randomDamageNeverTraps() throws {
        var generator = SystemRandomNumberGenerator()
        for format in [PropertyList.Format.binary, .xml] {
            guard case .dictionary(var members) = PropertyListCodecTests.everything else { return }
            members.removeLast()
            members[1].value = .string("text")
            let whole = try PropertyListCodec.write(.dictionary(members), as: format)
            for _ in 0..<3_000 {
                var bytes = whole
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
                _ = try? PropertyListCodec.read(bytes)
                _ = try? PropertyListDocument(bytes)
            }
        }
    }
}

/// Issue 47 item 1: the XML reader and the JSON reader charge what their values take in
/// memory (text by its bytes) against one budget, as the binary reader measures it.
@Suite struct ExpansionBudgetTests {
    @Test func theXMLReaderChargesTextByItsBytesAgainstTheFilesBudget() throws {
        let text = String(repeating: "x", count: 100_000)
        let xml = Array("<plist><array><string>\(text)</string><data>AAAA</data></array></plist>".utf8)
        var budget = ExpansionBudget(fileSize: 0)
        _ = try PropertyListCodec.read(xml, budget: &budget)
        #expect(budget.spent > 100_000 && budget.spent < 101_000, "\(budget.spent)")
        // The same file read with less left than it takes: refused, the budget passed.
        var small = ExpansionBudget(fileSize: 0, limits: PropertyListLimits(maxBytes: 50_000))
        #expect(throws: PropertyListError.self) { try PropertyListCodec.read(xml, budget: &small) }
        #expect(small.isPassed)
        #expect(small.excess(counting: "…").contains("would expand to more than"))
    }

    @Test func theBinaryReaderChargesWhatItMeasuredSharedReferencesIncluded() throws {
        let bytes = BinaryPlistBytes.sharedData(keys: 100, data: [UInt8](repeating: 1, count: 10_000))
        var budget = ExpansionBudget(fileSize: 0)
        _ = try PropertyListCodec.read(bytes, budget: &budget)
        #expect(budget.spent > 100 * 10_000, "\(budget.spent)")
        var second = budget
        second.charge(ExpansionBudget(fileSize: 0).limit)
        #expect(second.isPassed)
        #expect(second.excess(counting: "…").hasPrefix("would expand to 4."))
    }

    @Test func theJSONReaderChargesItsValuesAndStopsPastTheBudget() throws {
        let json = Array(
            ("[" + Array(repeating: #""\#(String(repeating: "y", count: 100))""#, count: 1_000).joined(separator: ",")
                + "]").utf8)
        var budget = ExpansionBudget(fileSize: 0)
        _ = try JSONParser.parse(json, budget: &budget)
        #expect(budget.spent > 1_000 * 100 && budget.spent < 1_000 * 300, "\(budget.spent)")
        var syntax = ExpansionBudget(fileSize: 0)
        _ = try JSONSyntaxTree(json, budget: &syntax)
        #expect(syntax.spent == budget.spent)
        var small = ExpansionBudget(fileSize: 0, limits: PropertyListLimits(maxBytes: 10_000))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(json, budget: &small) }
        #expect(small.isPassed && small.spent < 20_000)
    }
}
