import Foundation
import JarvisCore
import Testing

/// `set` without a type keeps the type a value has (issue 28 items 1, 3 and 6): in JSON files
/// (plain keys and pointers) and plist suites, through `jarvis set` and MCP `set_preference`
/// alike; a new key takes a JSON literal's type and says so; a new name one or two letters
/// from an existing one is refused unless asked for; hints name what exists nearby.
@Suite(.serialized) struct KeptTypeEndToEndTests {
    let sandbox: Sandbox
    let files: URL
    let suites: URL
    static let service = #"""
        {
          "port": 8080,
          "debug": false,
          "name": "svc",
          "maintenance_mode": false,
          "database": {"pool": {"max": 10, "min": 1}, "host": "db"}
        }
        """#

    init() throws {
        sandbox = try Sandbox()
        files = sandbox.root.appendingPathComponent("json")
        suites = sandbox.root.appendingPathComponent("prefs")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data(Self.service.utf8).write(to: files.appendingPathComponent("service.json"))
        try sandbox.writeSuite("com.example.kept", in: suites, ["count": 3, "enabled": true, "ratio": 0.5, "title": "t"])
        try sandbox.startAgent(["--files", files.path, "--defaults-dir", suites.path])
    }

    private func file() throws -> JSONValue {
        try JSONParser.parse(String(decoding: Data(contentsOf: files.appendingPathComponent("service.json")), as: UTF8.self))
    }

    @Test func aJSONFileKeepsItsNumbersAndBooleans() throws {
        let port = try sandbox.jarvis("set", "service.json", "port", "9090")
        #expect(port.status == 0 && port.stderr.isEmpty, "\(port.stderr)")
        #expect(try sandbox.jarvis("set", "service.json", "debug", "true").status == 0)
        #expect(try sandbox.jarvis("set", "service.json", "name", "42").status == 0)
        #expect(try sandbox.jarvis("set", "service.json", "/database/pool/max", "20").status == 0)
        let saved = try file()
        #expect(saved["port"] == .number(JSONNumber(9090)))
        #expect(saved["debug"] == .bool(true))
        #expect(saved["name"] == .string("42"))
        #expect(saved["database"]?["pool"]?["max"] == .number(JSONNumber(20)))
    }

    @Test func textThatDoesNotFitIsRefusedWithTheFlagThatChangesTheType() throws {
        let before = try Data(contentsOf: files.appendingPathComponent("service.json"))
        let word = try sandbox.jarvis("set", "service.json", "port", "abc")
        #expect(word.status == 64, "\(word.stderr)")
        #expect(word.stderr.contains("is not a whole number") && word.stderr.contains("use --string"), "\(word.stderr)")
        #expect(!word.stderr.contains("send type"))
        let real = try sandbox.jarvis("set", "service.json", "/database/pool/max", "2.5")
        #expect(real.status == 64 && real.stderr.contains("use --real"), "\(real.stderr)")
        let array = try sandbox.jarvis("set", "service.json", "debug", "[1]")
        #expect(array.status == 64 && array.stderr.contains("--string"), "\(array.stderr)")
        #expect(try Data(contentsOf: files.appendingPathComponent("service.json")) == before)
        // Asked for, the type changes.
        let text = try sandbox.jarvis("set", "service.json", "port", "abc", "--string")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(try file()["port"] == .string("abc"))
    }

    @Test func aNewKeyTakesTheLiteralsTypeAndSaysWhich() throws {
        let retries = try sandbox.jarvis("set", "service.json", "retries", "3")
        #expect(retries.status == 0, "\(retries.stderr)")
        #expect(retries.stderr.contains("created the new key 'retries', stored as an integer; use --string"))
        let ratio = try sandbox.jarvis("set", "service.json", "/database/pool/growth", "2.5")
        #expect(ratio.stderr.contains("stored as a real"), "\(ratio.stderr)")
        let label = try sandbox.jarvis("set", "service.json", "label", "hello")
        #expect(label.stderr.contains("stored as a string"), "\(label.stderr)")
        let zip = try sandbox.jarvis("set", "service.json", "zip", "02134")
        #expect(zip.status == 0, "\(zip.stderr)")
        let saved = try file()
        #expect(saved["retries"] == .number(JSONNumber(3)))
        #expect(saved["database"]?["pool"]?["growth"] == .number(try #require(JSONNumber(2.5))))
        #expect(saved["label"] == .string("hello") && saved["zip"] == .string("02134"))
    }

    @Test func aPlistSuiteKeepsItsTypes() throws {
        for (key, text) in [("count", "7"), ("enabled", "false"), ("ratio", "2"), ("title", "9")] {
            let set = try sandbox.jarvis("set", "com.example.kept", key, text)
            #expect(set.status == 0, "\(key): \(set.stderr)")
        }
        let refused = try sandbox.jarvis("set", "com.example.kept", "enabled", "maybe")
        #expect(refused.status == 64 && refused.stderr.contains("use --string"), "\(refused.stderr)")
        let fresh = try sandbox.jarvis("set", "com.example.kept", "launches", "1")
        #expect(fresh.stderr.contains("stored as an integer"), "\(fresh.stderr)")
        let values = try sandbox.readSuite("com.example.kept", in: suites)
        #expect(values["count"] as? Int == 7 && values["ratio"] as? Double == 2 && values["title"] as? String == "9")
        #expect(values["enabled"] as? Bool == false && values["launches"] as? Int == 1)
    }

    @Test func aNewNameNextToAnExistingOneIsATypoUnlessAskedFor() throws {
        let before = try Data(contentsOf: files.appendingPathComponent("service.json"))
        let typo = try sandbox.jarvis("set", "service.json", "maintenence_mode", "true")
        #expect(typo.status == 64, "\(typo.stderr)")
        #expect(typo.stderr.contains("Did you mean 'maintenance_mode'?") && typo.stderr.contains("--new"))
        let member = try sandbox.jarvis("set", "service.json", "/database/pool/maxx", "20")
        #expect(member.status == 64 && member.stderr.contains("Did you mean 'max'?"), "\(member.stderr)")
        #expect(try Data(contentsOf: files.appendingPathComponent("service.json")) == before)
        let meant = try sandbox.jarvis("set", "service.json", "maintenence_mode", "true", "--new")
        #expect(meant.status == 0 && meant.stderr.contains("created the new key"), "\(meant.stderr)")
        #expect(try file()["maintenence_mode"] == .bool(true))
        // Numbered names are made on purpose.
        #expect(try sandbox.jarvis("set", "com.example.kept", "count2", "1").status == 0)
        #expect(try sandbox.jarvis("set", "com.example.kept", "count3", "1").status == 0)
    }

    @Test func hintsNameSiblingsAndNeverOfferToCreateAFile() throws {
        let nested = try sandbox.jarvis("get", "service.json", "/database/pool/maxx")
        #expect(nested.status == 1 && nested.stderr.contains("Did you mean 'max'?"), "\(nested.stderr)")
        #expect(!nested.stderr.contains("'database'"))
        let missing = try sandbox.jarvis("get", "nothere.json", "port")
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(!missing.stderr.contains("create"), "\(missing.stderr)")
        let file = try sandbox.jarvis("set", "files:nothere.json", "port", "1")
        #expect(file.status == 1 && !file.stderr.contains("name the scanner"), "\(file.stderr)")
        #expect(!FileManager.default.fileExists(atPath: files.appendingPathComponent("nothere.json").path))
    }

    @Test func mcpKeepsTypesRefusesTyposAndSuggestsAsTheCLIDoes() throws {
        func call(_ id: Int, _ tool: String, _ arguments: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
        }
        let lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"kept","version":"1"}}}"#,
            call(1, "set_preference", #"{"container":"service.json","key":"port","value":"9090"}"#),
            call(2, "set_preference", #"{"container":"service.json","key":"debug","value":"true"}"#),
            call(3, "set_preference", #"{"container":"service.json","key":"name","value":42}"#),
            call(4, "set_preference", #"{"container":"service.json","key":"port","value":"abc"}"#),
            call(5, "set_preference", #"{"container":"service.json","key":"maintenence_mode","value":true}"#),
            call(6, "get_preference", #"{"container":"service.json","key":"database","pointer":"/pool/maxx"}"#),
            call(7, "set_preference", #"{"container":"service.json","key":"retries","value":"3"}"#),
            call(8, "set_preference", #"{"container":"service.json","key":"maintenence_mode","value":true,"create":true}"#),
            call(9, "set_preference", #"{"container":"com.example.kept","key":"count","value":"8"}"#),
        ]
        let answers = try sandbox.mcpSession(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        var results: [Int64: (text: String, isError: Bool)] = [:]
        for answer in answers {
            guard let id = answer["id"]?.int64Value, let result = answer["result"],
                let text = result["content"]?.arrayValue?.first?["text"]?.stringValue
            else { continue }
            results[id] = (text, result["isError"] == .bool(true))
        }
        for id: Int64 in [1, 2, 3, 7, 8, 9] { #expect(results[id]?.isError == false, "\(id): \(results[id]?.text ?? "")") }
        #expect(results[4]?.isError == true && results[4]?.text.contains("send type \"string\"") == true)
        #expect(results[5]?.isError == true && results[5]?.text.contains("Did you mean") == true)
        #expect(results[5]?.text.contains("maintenance_mode") == true && results[5]?.text.contains("create") == true)
        #expect(results[6]?.isError == true && results[6]?.text.contains("Did you mean 'max'?") == true)
        #expect(results[7]?.text.contains("stored as an integer") == true, "\(results[7]?.text ?? "")")
        let saved = try file()
        #expect(saved["port"] == .number(JSONNumber(9090)) && saved["debug"] == .bool(true))
        #expect(saved["name"] == .string("42") && saved["retries"] == .number(JSONNumber(3)))
        #expect(saved["maintenence_mode"] == .bool(true))
        #expect(try sandbox.readSuite("com.example.kept", in: suites)["count"] as? Int == 8)
    }
}
