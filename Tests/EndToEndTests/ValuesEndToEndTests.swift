import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// Exact numbers, dates, XML-illegal characters, NaN and system domains, through the real
/// `jarvis-agent` and `jarvis`, on real files.
@Suite(.serialized) struct ValuesEndToEndTests {
    let sandbox: Sandbox
    let suites: URL
    let files: URL

    init() throws {
        sandbox = try Sandbox()
        suites = sandbox.root.appendingPathComponent("prefs")
        files = sandbox.root.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try sandbox.writeSuite("com.example.app", in: suites, ["name": "Ada", "mask": NSNumber(value: UInt64.max)])
    }

    private func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test func bigNumbersKeepTheirDigitsAndTheirType() throws {
        let app = files.appendingPathComponent("app.json")
        try Data(#"{"id":12345678901234567890,"huge":1e400,"low":-99999999999999999999}"#.utf8).write(to: app)
        try sandbox.startAgent(["--files", files.path, "--defaults-dir", suites.path])
        #expect(try sandbox.jarvis("get", "files:app.json", "id").stdout == "12345678901234567890\n")
        #expect(try sandbox.jarvis("get", "files:app.json", "huge").stdout == "1e400\n")
        let listed = try sandbox.jarvis("--json", "ls", "files:app.json")
        #expect(listed.stdout.contains(#"{"$integer":"12345678901234567890"}"#))
        #expect(listed.stdout.contains(#"{"$real":"1e400"}"#))
        #expect(listed.stdout.contains(#""type":"real""#))
        #expect(!listed.stdout.contains(#""readOnly":true"#))

        let set = try sandbox.jarvis("set", "files:app.json", "id", "98765432109876543210", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try sandbox.jarvis("set", "files:app.json", "huge", "2e500", "--real").status == 0)
        #expect(
            try text(app) == #"{"id":98765432109876543210,"huge":2e500,"low":-99999999999999999999}"#)

        // A plist integer 2^64-1 (a UInt64) reads exactly and is written back unsigned.
        #expect(try sandbox.jarvis("get", "com.example.app", "mask").stdout == "18446744073709551615\n")
        let unsigned = try sandbox.jarvis("set", "com.example.app", "other", "18446744073709551614", "--int")
        #expect(unsigned.status == 0, "\(unsigned.stderr)")
        let suite = try sandbox.readSuite("com.example.app", in: suites)
        #expect((suite["other"] as? NSNumber)?.uint64Value == UInt64.max - 1)
        let beyond = try sandbox.jarvis("set", "com.example.app", "other", "18446744073709551616", "--int")
        #expect(beyond.status != 0)
        #expect(beyond.stderr.contains("beyond the integers a property list holds"))
    }

    @Test func datesKeepTheirFractionOrSayTheyWereRounded() throws {
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let fresh = try sandbox.jarvis("set", "defaults:com.example.new", "at", "2024-01-15T10:00:00.250Z", "--date")
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(!fresh.stderr.contains("rounded"), "\(fresh.stderr)")
        #expect(
            try Data(contentsOf: suites.appendingPathComponent("com.example.new.plist")).starts(
                with: Array("bplist00".utf8)))
        #expect(try sandbox.jarvis("get", "com.example.new", "at").stdout == "2024-01-15T10:00:00.250Z\n")

        let rounded = try sandbox.jarvis("set", "com.example.app", "at", "2024-01-15T10:00:00.250Z", "--date")
        #expect(rounded.status == 0, "\(rounded.stderr)")
        #expect(
            rounded.stderr.contains("note: 'at': the date was stored as 2024-01-15T10:00:00Z, rounded to whole seconds")
        )
        #expect(try text(suites.appendingPathComponent("com.example.app.plist")).hasPrefix("<?xml"))
    }

    @Test func controlCharactersAreRefusedForXMLSuites() throws {
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let before = try Data(contentsOf: suites.appendingPathComponent("com.example.app.plist"))
        let refused = try sandbox.jarvis("set", "com.example.app", "title", "bell\u{7}")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("'title': the value contains U+0007"))
        #expect(refused.stderr.contains("XML 1.0 cannot hold"))
        #expect(try Data(contentsOf: suites.appendingPathComponent("com.example.app.plist")) == before)
        // A binary suite holds it.
        let binary = try sandbox.jarvis("set", "defaults:com.example.bin", "title", "bell\u{7}")
        #expect(binary.status == 0, "\(binary.stderr)")
    }

    @Test func aStoredNaNIsNeverReportedAsChanged() throws {
        try sandbox.writeSuite("com.example.nan", in: suites, ["ratio": Double.nan, "count": 1])
        let agent = try sandbox.startAgent(["--defaults-dir", suites.path])
        let client = try JarvisClient(
            endpoint: .unix(path: sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).sock").path))
        _ = try client.watch(container: "com.example.nan")
        // Another process rewrites the file (in one rename, so no half-written file is ever
        // read) with the NaN unchanged and one real change.
        func rewrite(_ count: Int) throws {
            let data = try PropertyListSerialization.data(
                fromPropertyList: ["ratio": Double.nan, "count": count], format: .xml, options: 0)
            try data.write(to: suites.appendingPathComponent("com.example.nan.plist"), options: .atomic)
        }
        try rewrite(2)
        let seen = try #require(try client.nextChange(timeout: .seconds(10)))
        #expect(seen.changes.map(\.address.key) == ["count"])
        try rewrite(2)
        #expect(try client.nextChange(timeout: .seconds(2)) == nil)
    }

    /// A dictionary holding NaN and infinities, set through the agent, reads back from
    /// `jarvis get` as JSON a parser takes (JSON has no such numbers: they are the wire's
    /// strings, and a note on stderr says so), and `--json` keeps the exact value.
    @Test func aDictionaryHoldingNaNReadsBackAsValidJSON() throws {
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let value = #"{"ratio":{"$real":"NaN"},"limits":[{"$real":"Infinity"},{"$real":"-Infinity"},2.5]}"#
        let set = try sandbox.jarvis("set", "com.example.app", "stats", value, "--type", "json")
        #expect(set.status == 0, "\(set.stderr)")
        let got = try sandbox.jarvis("get", "com.example.app", "stats")
        #expect(got.status == 0, "\(got.stderr)")
        let parsed = try JSONParser.parse(Array(got.stdout.utf8))
        #expect(parsed["ratio"] == "NaN", "\(got.stdout)")
        #expect(parsed["limits"] == ["Infinity", "-Infinity", 2.5], "\(got.stdout)")
        #expect(got.stderr.contains(#"strings "NaN", "Infinity" and "-Infinity""#), "\(got.stderr)")
        let exact = try sandbox.jarvis("--json", "get", "com.example.app", "stats")
        #expect(exact.stdout.contains(#"{"$real":"NaN"}"#), "\(exact.stdout)")
    }

    @Test func systemDomainsAreHiddenEverywhereUnlessAsked() throws {
        for index in 0..<20 { try sandbox.writeSuite("com.apple.domain\(index)", in: suites, ["k": index]) }
        try sandbox.writeSuite("com.apple.dock", in: suites, ["autohide": true])
        try sandbox.startAgent(["--defaults-dir", suites.path])
        let listing = try sandbox.jarvis("ls")
        #expect(!listing.stdout.contains("defaults:com.apple"))
        #expect(listing.stdout.contains("21 system containers hidden"))
        #expect(listing.stdout.contains("--system-domains"))
        let plain = try sandbox.jarvis("get", "com.apple.dock", "autohide")
        let named = try sandbox.jarvis("get", "defaults:com.apple.dock", "autohide")
        #expect(plain.status != 0 && named.status != 0)
        #expect(try sandbox.jarvis("set", "defaults:com.apple.dock", "autohide", "false", "--bool").status != 0)
        #expect(sandbox.readSuiteValue("com.apple.dock", "autohide", in: suites) as? Bool == true)

        let other = try Sandbox()
        try other.startAgent(["--defaults-dir", suites.path, "--system-domains"])
        #expect(try other.jarvis("get", "com.apple.dock", "autohide").stdout == "true\n")
        #expect(!(try other.jarvis("ls").stdout.contains("hidden")))
    }
}

extension Sandbox {
    fileprivate func readSuiteValue(_ name: String, _ key: String, in folder: URL) -> Any? {
        (try? readSuite(name, in: folder))?[key]
    }
}
