import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 47 item 1 against the real binaries: binary plists that refer to one data object many
/// times. Each file is small; what it expands to is not. A folder of such suites must leave the
/// agent's memory bounded, `jarvis ls` must stay within the client's line limit (64 MiB, which
/// a dozen of them passed together when one page held every item), a suite that would expand
/// past its budget (counting the property lists its data holds each time one is decoded) is a
/// problem naming that size, and every other suite is served; no file is changed.
@Suite(.serialized) struct ReferenceBombEndToEndTests {
    /// One data object of 60 KB, as in the issue.
    static let blobSize = 60_000
    /// Suites within their budget: each 61 KB file refers to its data 80 times (4.8 MB), so
    /// together they take more than the client's 64 MiB line as one listing.
    static let inBudgetSuites = 12
    static let inBudgetReferences = 80
    /// The issue's 60 suites of 61 KB that refer to their data 270 times: 16 MB (15.4 MiB)
    /// each, past their 5.9 MiB budget.
    static let overSuites = 60
    static let overReferences = 270
    /// The agent's memory may grow this much above idle while it serves them (the 32 MiB
    /// cache of parsed suites, one suite being parsed, one answer being written).
    static let memoryBound = 64 << 20

    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("suites")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func referenceBombsLeaveTheAgentBoundedAndTheOtherSuitesServed() throws {
        let blob = (0..<Self.blobSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var files: [String: [UInt8]] = [:]
        for index in 0..<Self.inBudgetSuites {
            files[String(format: "bomb-%02d", index)] = BinaryPlistBytes.sharedData(
                keys: Self.inBudgetReferences, data: blob)
        }
        for index in 0..<Self.overSuites {
            files[String(format: "over-%02d", index)] = BinaryPlistBytes.sharedData(
                keys: Self.overReferences, data: blob)
        }
        // 40 keys that refer to one piece of data holding a property list of 3.2 MB (a 16 KB
        // object referred to 200 times): each key decodes its own copy, 128 MB together from a
        // 17 KB file.
        let inner = BinaryPlistBytes.sharedData(keys: 200, data: Array(blob.prefix(16_000)))
        files["nested"] = BinaryPlistBytes.sharedData(keys: 40, data: inner)
        files["plain"] = try PropertyListCodec.write(.dictionary([.init("name", .string("Ada"))]), as: .binary)
        for (name, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(name + ".plist")) }

        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let idle = try ListMemoryEndToEndTests.settledMemory(of: agent)

        let listing = try sandbox.run(Binaries.url("jarvis"), ["ls"], limit: 600)
        #expect(listing.status == 0, "jarvis ls failed: \(listing.stderr.prefix(600))")
        for index in 0..<Self.inBudgetSuites {
            #expect(listing.stdout.contains(String(format: "defaults:bomb-%02d\n", index)), "bomb-\(index) not listed")
        }
        #expect(listing.stdout.contains("defaults:plain\n"))
        let lines = listing.stdout.split(separator: "\n")
        for index in 0..<Self.overSuites {
            let name = String(format: "over-%02d", index)
            let over = lines.first { $0.hasPrefix("defaults:\(name): ") }.map(String.init) ?? ""
            // 270 × 60 KB: 15.4 MiB, named as such.
            #expect(over.contains("would expand to 15.4 MiB"), "\(name).plist: \(over.isEmpty ? "no problem" : over)")
        }
        let nested = lines.first { $0.hasPrefix("defaults:nested: ") }.map(String.init) ?? ""
        #expect(
            nested.contains("would expand to") && nested.contains("decoded"),
            "nested.plist: \(nested.isEmpty ? "no problem" : nested)")

        for index in 0..<Self.inBudgetSuites {
            let got = try sandbox.jarvis("get", String(format: "bomb-%02d", index), "k7", "--json")
            #expect(got.status == 0, "get bomb-\(index): \(got.stderr.prefix(300))")
            #expect(got.stdout.contains(#""type":"data""#))
        }
        let plain = try sandbox.jarvis("get", "plain", "name")
        #expect(plain.status == 0 && plain.stdout.contains("Ada"), "\(plain.stdout) \(plain.stderr)")
        for index in 0..<Self.overSuites {
            let refused = try sandbox.jarvis("get", String(format: "over-%02d", index), "k0")
            #expect(refused.status != 0 && refused.stderr.contains("would expand to 15.4 MiB"), "\(refused.stderr)")
        }
        let decoded = try sandbox.jarvis("get", "nested", "k0")
        #expect(decoded.status != 0 && decoded.stderr.contains("would expand to"), "\(decoded.stderr)")

        // A suite refused for reading is never written either.
        for name in ["over-00", "nested"] {
            let write = try sandbox.jarvis("set", name, "k0", "1")
            #expect(write.status != 0 && write.stderr.contains("would expand to"), "set \(name): \(write.stderr)")
        }

        let after = try ListMemoryEndToEndTests.settledMemory(of: agent)
        print(
            "reference bombs: the agent idle at \(idle.resident >> 20) MiB, peak \(after.peak >> 20) MiB, then \(after.resident >> 20) MiB"
        )
        #expect(
            after.peak - idle.resident < Self.memoryBound,
            "the agent went from \(idle.resident >> 20) MiB idle to a peak of \(after.peak >> 20) MiB (bound: \(Self.memoryBound >> 20) MiB above idle)"
        )
        #expect(after.resident - idle.resident < Self.memoryBound)
        #expect(agent.answersANewClient())
        for (name, bytes) in files {
            #expect(
                [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".plist"))) == bytes,
                "\(name).plist changed")
        }

        // The suites go: asked for again, each is let go from the cache, and the memory they
        // took goes back to the system.
        for index in 0..<Self.inBudgetSuites {
            let name = String(format: "bomb-%02d", index)
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".plist"))
            #expect(try sandbox.jarvis("get", "defaults:" + name, "k7").status != 0)
        }
        let emptied = try ListMemoryEndToEndTests.settledMemory(of: agent)
        print("reference bombs: \(emptied.resident >> 20) MiB once the suites were let go")
        #expect(
            emptied.resident - idle.resident < Self.memoryBound / 4,
            "the agent kept \(emptied.resident >> 20) MiB once the suites were let go (idle: \(idle.resident >> 20) MiB)"
        )
    }
}
