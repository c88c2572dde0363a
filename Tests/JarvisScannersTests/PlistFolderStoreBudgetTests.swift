import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisScanners

/// Issue 47 item 1: one budget per read. A suite's file and every piece of its data decoded as
/// a structure (a property list or JSON a `Codable` value was stored as) are charged against
/// the file's one budget, each key's copy every time it is decoded; a suite past it is a
/// problem naming what it would expand to, never written, and the other suites are served.
@Suite struct PlistFolderStoreBudgetTests {
    let folder: TemporaryFolder
    let scanner: DefaultsScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = .defaults(folder: folder.url)
        let plain = try PropertyListCodec.write(.dictionary([.init("name", .string("Ada"))]), as: .binary)
        try Data(plain).write(to: folder.file("plain.plist"))
    }

    /// 40 keys that share one piece of data holding `inner`: a file little larger than `inner`.
    private func plantShared(_ name: String, _ inner: [UInt8]) throws -> [UInt8] {
        let bytes = BinaryPlistBytes.sharedData(keys: 40, data: inner)
        try Data(bytes).write(to: folder.file(name + ".plist"))
        return bytes
    }

    private func expectRefused(_ name: String, _ bytes: [UInt8]) throws {
        let problem = try scanner.containers().first { $0.name == name }?.problem ?? ""
        #expect(problem.contains("would expand to") && problem.contains("decoded"), "\(problem)")
        #expect(throws: JarvisError.self) { try scanner.read(ReadRequest(container: name)) }
        #expect(throws: JarvisError.self) {
            try scanner.write(WriteRequest(container: name, key: "k0", change: .set(1)))
        }
        #expect([UInt8](try Data(contentsOf: folder.file(name + ".plist"))) == bytes)
        #expect(try scanner.read(ReadRequest(container: "plain")).map(\.value) == [.string("Ada")])
    }

    @Test func dataHoldingAPropertyListIsChargedEachTimeItIsDecoded() throws {
        // Each key's data holds a property list of 3.2 MB (16 KB referred to 200 times), within
        // its own budget; 40 keys decode 128 MB from a 17 KB file.
        let inner = BinaryPlistBytes.sharedData(keys: 200, data: [UInt8](repeating: 7, count: 16_000))
        try expectRefused("nested", try plantShared("nested", inner))
    }

    @Test func dataHoldingJSONIsChargedAtWhatItsValuesTake() throws {
        // 20 KB of JSON holding 5,000 short strings: 280 KB once read, 11 MB for 40 keys.
        let json = Array(("[" + Array(repeating: #""a""#, count: 5_000).joined(separator: ",") + "]").utf8)
        try expectRefused("json", try plantShared("json", json))
    }

    @Test func dataWithinTheBudgetIsStillShownAsItsStructure() throws {
        let json = Array(#"{"theme":"dark","size":3}"#.utf8)
        _ = try plantShared("codable", json)
        let entries = try scanner.read(ReadRequest(container: "codable"))
        #expect(entries.count == 40)
        #expect(entries.allSatisfy { $0.encoding == .json && $0.value.type == .dictionary })
    }
}

extension PlistFolderStoreBudgetTests {
    @Test func dataRefusedByItsOwnSizeOrNotJSONStaysDataAndChargesNothing() throws {
        // Data holding a 61 KB property list that would expand to 8.4 MB, past the 5.9 MiB of
        // its own size though within what its 310 KB file leaves: shown as data, as before; and
        // text that starts like JSON but is not.
        let bomb = BinaryPlistBytes.sharedData(keys: 140, data: [UInt8](repeating: 3, count: 60_000))
        let padding = (0..<250_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = try PropertyListCodec.write(
            .dictionary([.init("one", .data(bomb)), .init("pad", .data(padding))]), as: .binary)
        try Data(file).write(to: folder.file("one.plist"))
        let broken = Array(("[" + Array(repeating: #""a""#, count: 5_000).joined(separator: ",") + "}").utf8)
        _ = try plantShared("broken", broken)
        #expect(
            try scanner.read(ReadRequest(container: "one")).map(\.value) == [.data(Data(bomb)), .data(Data(padding))])
        let entries = try scanner.read(ReadRequest(container: "broken"))
        #expect(entries.count == 40 && entries.allSatisfy { $0.value == .data(Data(broken)) })
    }
}

extension PlistFolderStoreBudgetTests {
    /// A suite read through `UserDefaults` has no file to size its budget by: what its data
    /// decodes to is bounded by ``DefaultsEntries/objectSuiteBudget`` (64 MiB) together.
    @Test func aUserDefaultsSuiteWhoseDataDecodesPast64MiBIsRefused() throws {
        let inner = Data(BinaryPlistBytes.sharedData(keys: 200, data: [UInt8](repeating: 7, count: 16_000)))
        var stored: [String: Any] = [:]
        for index in 0..<10 { stored["k\(index)"] = inner }
        #expect(try DefaultsEntries.entries(stored: stored, registered: [:], keys: nil).count == 10)
        for index in 10..<40 { stored["k\(index)"] = inner }
        #expect {
            try DefaultsEntries.entries(stored: stored, registered: [:], keys: nil)
        } throws: { error in
            (error as? JarvisError)?.message.contains("would expand to") == true
        }
    }
}
