import Foundation
import JarvisRemote
import Testing

/// `jarvis-agent --simulator` over a Simulator tree the test makes, with a HOME of its own:
/// two devices (one booted, one shut down), two apps and an App Group.
@Suite(.serialized) struct SimulatorSidecarEndToEndTests {
    let sandbox: Sandbox
    let tree: SimulatorTree
    let padNotes: URL
    let phoneNotes: URL

    init() throws {
        sandbox = try Sandbox()
        let home = sandbox.root.appendingPathComponent("home", isDirectory: true)
        tree = SimulatorTree(home: home)
        sandbox.environmentOverrides["HOME"] = home.path
        try tree.addDevice(udid: "11111111-AAAA", name: "iPhone 15", state: 3)
        try tree.addDevice(udid: "22222222-BBBB", name: "iPad Air", state: 1)
        let phoneApp = try tree.addContainer(device: "11111111-AAAA", identifier: "com.example.notes")
        phoneNotes = try tree.addSuite("com.example.notes", in: phoneApp, ["theme": "dark", "launches": 3])
        let padApp = try tree.addContainer(device: "22222222-BBBB", identifier: "com.example.notes")
        padNotes = try tree.addSuite(
            "com.example.notes", in: padApp,
            [
                "theme": "light", "launches": 5, "when": Date(timeIntervalSince1970: 1_700_000_000),
                "blob": Data([0, 1, 2]), "nested": ["list": [1, 2.5, true]],
            ])
        let padTimer = try tree.addContainer(device: "22222222-BBBB", identifier: "com.example.timer")
        try tree.addSuite("com.example.timer", in: padTimer, ["seconds": 90])
        let group = try tree.addContainer(device: "22222222-BBBB", identifier: "group.com.example.shared", group: true)
        try tree.addSuite("group.com.example.shared", in: group, ["sync": true])
    }

    /// The suite as Python's plistlib reads it: the first 8 bytes, and the values as JSON.
    func pythonRead(_ file: URL) throws -> (magic: String, values: [String: Any]) {
        let script = """
            import json, plistlib, sys
            raw = open(sys.argv[1], 'rb').read()
            values = plistlib.loads(raw)
            print(json.dumps({'magic': raw[:8].decode('latin-1'), 'values': values}, default=str, sort_keys=True))
            """
        let result = try sandbox.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let magic = object["magic"] as? String, let values = object["values"] as? [String: Any]
        else { throw HarnessError("plistlib could not read \(file.lastPathComponent): \(result.stderr)") }
        return (magic, values)
    }

    @Test func listsBothDevicesSuites() throws {
        try sandbox.startAgent(["--simulator"])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        for container in [
            "defaults:iPhone 15/com.example.notes/com.example.notes",
            "defaults:iPad Air/com.example.notes/com.example.notes",
            "defaults:iPad Air/com.example.timer/com.example.timer",
            "defaults:iPad Air/group.com.example.shared/group.com.example.shared",
        ] {
            #expect(listing.stdout.contains(container), "\(container) missing from:\n\(listing.stdout)")
        }
        let phone = try sandbox.jarvis("get", "iPhone 15/com.example.notes/com.example.notes", "theme")
        #expect(phone.stdout == "dark\n")
        let pad = try sandbox.jarvis("get", "iPad Air/com.example.notes/com.example.notes", "theme")
        #expect(pad.stdout == "light\n")
    }

    @Test func narrowsToTheBootedDeviceAndOneApp() throws {
        try sandbox.startAgent(["--simulator", "--device", "booted", "--app", "com.example.notes"])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("defaults:iPhone 15/com.example.notes/com.example.notes"))
        #expect(!listing.stdout.contains("iPad Air"))
    }

    @Test(.enabled(if: OptionalTool.runs(["python3"]), OptionalTool.hint(["python3"], install: "apt-get install python3")))
    func editsAShutDownDevicesBinaryPlistInPlace() throws {
        try sandbox.startAgent(["--simulator"])
        let before = try pythonRead(padNotes)
        #expect(before.magic == "bplist00")
        let set = try sandbox.jarvis("set", "iPad Air/com.example.notes/com.example.notes", "launches", "6", "--int")
        #expect(set.status == 0, "\(set.stderr)")
        let after = try pythonRead(padNotes)
        #expect(after.magic == "bplist00")
        #expect(after.values["launches"] as? Int == 6)
        var unchanged = after.values
        unchanged["launches"] = before.values["launches"]
        #expect(NSDictionary(dictionary: unchanged).isEqual(to: before.values))
        #expect(Set(after.values.keys) == ["theme", "launches", "when", "blob", "nested"])
    }

    @Test func refusesToEditABootedDeviceAndSaysWhatToDo() throws {
        try sandbox.startAgent(["--simulator"])
        let before = try Data(contentsOf: phoneNotes)
        let set = try sandbox.jarvis("set", "iPhone 15/com.example.notes/com.example.notes", "theme", "light")
        #expect(set.status != 0)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xcrun") {
            // On a Mac the edit goes to `simctl`, which knows no such device.
            #expect(set.stderr.contains("defaults"), "\(set.stderr)")
        } else {
            #expect(set.stderr.contains("Simulator device 11111111-AAAA is booted"), "\(set.stderr)")
            #expect(set.stderr.contains("Embed the Jarvis agent in the app"), "\(set.stderr)")
            #expect(set.stderr.contains("shut the device down"), "\(set.stderr)")
        }
        #expect(try Data(contentsOf: phoneNotes) == before)
    }

    @Test func anUndoADeviceCanNoLongerTakeSaysSoAndWritesNothing() throws {
        try sandbox.startAgent(["--simulator"])
        let pad = "iPad Air/com.example.notes/com.example.notes"
        #expect(try sandbox.jarvis("set", pad, "theme", "dark").status == 0)
        let changed = try Data(contentsOf: padNotes)
        // The device boots: its preferences daemon now owns the suite.
        try tree.addDevice(udid: "22222222-BBBB", name: "iPad Air", state: 3)
        let refused = try sandbox.jarvis("undo")
        #expect(refused.status == 1)
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/xcrun") {
            #expect(refused.stderr.contains("Simulator device 22222222-BBBB is booted"), "\(refused.stderr)")
        }
        #expect(try Data(contentsOf: padNotes) == changed, "nothing written")
        // Shut down again, the same undo goes through.
        try tree.addDevice(udid: "22222222-BBBB", name: "iPad Air", state: 1)
        let undone = try sandbox.jarvis("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try sandbox.jarvis("get", pad, "theme").stdout.contains("light"))
    }

    @Test func refusesToStartWithoutDevicesOrWithAnUnknownOne() throws {
        let agent = try Binaries.url("jarvis-agent")
        let unknown = try sandbox.run(agent, ["--simulator", "--device", "Pixel 8"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no Simulator device is named or has the UDID 'Pixel 8'"))
        #expect(unknown.stderr.contains("iPad Air (22222222-BBBB, shut down)"))
        sandbox.environmentOverrides["HOME"] = sandbox.root.appendingPathComponent("empty").path
        let empty = try sandbox.run(agent, ["--simulator"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("no Simulator devices in"))
        let mixed = try sandbox.run(agent, ["--simulator", "--demo"])
        #expect(mixed.status == 64)
        let stray = try sandbox.run(agent, ["--device", "booted", "--demo"])
        #expect(stray.status == 64)
        #expect(stray.stderr.contains("add --simulator"))
    }

    /// A device's name comes from a file: the agent shows its control characters instead of
    /// sending them to the terminal, in what it announces and in its errors.
    @Test func aDeviceNameCannotDriveTheTerminal() throws {
        try tree.addDevice(udid: "33333333-CCCC", name: "Evil\u{1B}]0;owned\u{07}", state: 1)
        let log = sandbox.root.appendingPathComponent("agent.log")
        try sandbox.startAgent(["--simulator"], log: log)
        let printed = try String(contentsOf: log, encoding: .utf8)
        #expect(printed.contains("simulator: Evil\\x1B]0;owned\\x07 (shut down"), "\(printed)")
        #expect(!printed.contains("\u{1B}") && !printed.contains("\u{07}"), "\(printed)")
        let failed = try sandbox.run(try Binaries.url("jarvis-agent"), ["--simulator", "--device", "Pixel 8"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Evil\\x1B]0;owned\\x07"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("\u{1B}"), "\(failed.stderr)")
    }

    @Test(.enabled(if: OptionalTool.runs(["python3"]), OptionalTool.hint(["python3"], install: "apt-get install python3")))
    func aSuiteRewrittenByTheAppIsSeenByWatchers() throws {
        try sandbox.startAgent(["--simulator"])
        let client = try JarvisClient(endpoint: try AgentLocator.endpoint(for: nil, environment: sandbox.environment))
        defer { client.close() }
        _ = try client.watch(container: "iPad Air/com.example.notes/com.example.notes")
        // Another process rewrites the binary plist the way Foundation saves: a new file renamed over.
        let script = """
            import os, plistlib, sys
            path = sys.argv[1]
            values = plistlib.load(open(path, 'rb'))
            values['launches'] = 7
            with open(path + '.new', 'wb') as f:
                plistlib.dump(values, f, fmt=plistlib.FMT_BINARY)
            os.replace(path + '.new', path)
            """
        let rewrite = try sandbox.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, padNotes.path])
        #expect(rewrite.status == 0, "\(rewrite.stderr)")
        let seen = try #require(try client.nextChange(timeout: .seconds(15)))
        #expect(seen.changes.map(\.kind) == ["updated"])
        #expect(seen.changes.first?.item?.address.container == "iPad Air/com.example.notes/com.example.notes")
        #expect(seen.changes.first?.old?.value == .integer(5))
        #expect(seen.changes.first?.item?.value == .integer(7))
    }
}
