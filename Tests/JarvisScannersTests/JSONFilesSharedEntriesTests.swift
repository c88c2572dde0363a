import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// Issue 17 item 6: many clients listing one large JSON file share one array of its entries
/// (made once per version of the file), instead of each holding a conversion of its own.
@Suite final class JSONFilesSharedEntriesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var members: [String] = []
        for index in (0..<20_000).reversed() { members.append(#""key_\#(index)":"value \#(index)""#) }
        try Data(("{" + members.joined(separator: ",") + "}").utf8).write(to: folder.appendingPathComponent("big.json"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private static func storage(_ entries: [ScannedEntry]) -> UnsafeRawPointer? {
        entries.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func readsOfOneVersionShareOneSortedArray() throws {
        let scanner = JSONFilesScanner.jsonFiles(in: [folder])
        let first = try scanner.read(ReadRequest(container: "big.json"))
        let second = try scanner.read(ReadRequest(container: "big.json"))
        #expect(first.count == 20_000)
        #expect(Self.storage(first) == Self.storage(second), "each read converted the file again")
        // Sorted already, so a listing stream never copies it to sort.
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.key < $1.key })

        // Ten listings in flight hold the same array, not ten.
        let hub = JarvisHub()
        hub.register(scanner)
        var streams = try (0..<10).map { _ in try hub.listStream(ListQuery()) }
        for index in streams.indices { _ = streams[index].next() }
        #expect(Self.storage(try scanner.read(ReadRequest(container: "big.json"))) == Self.storage(first))
        // A new version of the file is a new array.
        try Data(#"{"only":1}"#.utf8).write(to: folder.appendingPathComponent("big.json"))
        #expect(try scanner.read(ReadRequest(container: "big.json")).map(\.key) == ["only"])
    }

    /// Issue 47 item 2: readers that arrive together, before the file was ever parsed, share
    /// one parse (each parsing its own copy held ten copies while their clients did not read).
    @Test func readsThatArriveTogetherShareOneParse() throws {
        let scanner = JSONFilesScanner.jsonFiles(in: [folder])
        // The arrays are kept until compared, so no address is freed and reused meanwhile.
        let arrays = Locked<[[ScannedEntry]]>([])
        // Eight threads released together, each reading as a client's listing does.
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread {
                go.wait()
                let entries = (try? scanner.read(ReadRequest(container: "big.json"))) ?? []
                arrays.withLock { $0.append(entries) }
                done.leave()
            }.start()
        }
        for _ in 0..<8 { go.signal() }
        done.wait()
        let kept = arrays.current
        #expect(kept.count == 8 && kept.allSatisfy { $0.count == 20_000 })
        #expect(Set(kept.map { Self.storage($0) }).count == 1, "the readers parsed the file more than once")
    }
}
