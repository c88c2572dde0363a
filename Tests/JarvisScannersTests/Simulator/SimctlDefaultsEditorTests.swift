import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

@Suite("simctl defaults commands")
struct SimctlDefaultsEditorTests {
    let path =
        "/Users/a/Library/Developer/CoreSimulator/Devices/U1/data/Containers/Data/Application/A1/Library/Preferences/com.example.notes.plist"

    func arguments(_ change: WriteRequest.Change, key: String = "k") throws -> [String] {
        try SimctlDefaultsEditor.arguments(
            for: SimulatorDefaultsEdit(udid: "U1", plistPath: path, key: key, change: change))
    }

    @Test func scalarsGoWithTheirTypeFlag() throws {
        let prefix = ["simctl", "spawn", "U1", "defaults", "write", path, "k"]
        #expect(try arguments(.set("dark mode")) == prefix + ["-string", "dark mode"])
        #expect(try arguments(.set(.integer(-42))) == prefix + ["-integer", "-42"])
        #expect(try arguments(.set(.real(0.25))) == prefix + ["-float", "0.25"])
        #expect(try arguments(.set(.boolean(true))) == prefix + ["-bool", "true"])
        #expect(try arguments(.set(.boolean(false))) == prefix + ["-bool", "false"])
        #expect(try arguments(.set(.data(Data([0, 1, 0xAB, 0xFF])))) == prefix + ["-data", "0001abff"])
    }

    @Test func aStringThatLooksLikeAFlagStaysTheValue() throws {
        #expect(try arguments(.set("-bool")).suffix(2) == ["-string", "-bool"])
    }

    @Test func structuresAndDatesGoAsAnXMLPropertyList() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try arguments(.set(.date(date))).last == "<date>2023-11-14T22:13:20Z</date>")
        #expect(try arguments(.set(["a", 1])).last == "<array><string>a</string><integer>1</integer></array>")
        let dictionary = try #require(try arguments(.set(["n": ["on": true]])).last)
        #expect(dictionary == "<dict><key>n</key><dict><key>on</key><true/></dict></dict>")
        // What `defaults` is given parses back to the same value.
        let parsed = try PropertyListSerialization.propertyList(
            from: Data("<plist version=\"1.0\">\(dictionary)</plist>".utf8), format: nil)
        #expect(try PropertyListValue.decode(parsed, path: "k").value == ["n": ["on": true]])
    }

    @Test func deleteRemovesTheKeyFromThatFile() throws {
        #expect(try arguments(.delete, key: "a key") == ["simctl", "spawn", "U1", "defaults", "delete", path, "a key"])
    }

    @Test func nonFiniteRealsAreRefused() throws {
        #expect(throws: JarvisError.self) { try arguments(.set(.real(.nan))) }
    }

    @Test func xcrunIsFoundOnThePathOrEditsAreRefused() throws {
        let folder = try TemporaryFolder()
        let none = SimctlDefaultsEditor.forThisMachine(environment: ["PATH": folder.url.path])
        #expect(none is RefusingDefaultsEditor)
        let xcrun = folder.file("xcrun")
        try Data("#!/bin/sh\n".utf8).write(to: xcrun)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: xcrun.path)
        let found = SimctlDefaultsEditor.forThisMachine(environment: ["PATH": "/nonexistent:" + folder.url.path])
        #expect((found as? SimctlDefaultsEditor)?.xcrun.path == xcrun.path)
    }

    @Test func theRefusalSaysWhatToDoInstead() throws {
        let edit = SimulatorDefaultsEdit(udid: "U1", plistPath: path, key: "k", change: .delete)
        let error = try #require(throws: JarvisError.self) {
            try RefusingDefaultsEditor(reason: "no xcrun here").apply(edit)
        }
        #expect(error.code == .readOnly)
        #expect(error.message.contains("Embed the Jarvis agent in the app"))
        #expect(error.message.contains("shut the device down (`xcrun simctl shutdown U1`)"))
        #expect(error.message.contains("no xcrun here"))
    }
}

@Suite("simctl process")
struct SimctlProcessTests {
    let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func aFailingToolsExitAndMessageAreReported() throws {
        let error = try #require(throws: JarvisError.self) {
            try SimctlDefaultsEditor.run(
                shell, arguments: ["-c", "echo 'Invalid device: U1' >&2; exit 3"], timeout: .seconds(20))
        }
        #expect(error.code == .storage)
        #expect(error.message.contains("failed (exit 3): Invalid device: U1"))
    }

    @Test func aSucceedingToolIsQuiet() throws {
        try SimctlDefaultsEditor.run(shell, arguments: ["-c", "exit 0"], timeout: .seconds(20))
    }

    @Test func aHungToolIsStopped() throws {
        let error = try #require(throws: JarvisError.self) {
            try SimctlDefaultsEditor.run(shell, arguments: ["-c", "exec sleep 30"], timeout: .milliseconds(300))
        }
        #expect(error.message.contains("did not finish"))
    }

    @Test func aMissingToolSaysSo() throws {
        let error = try #require(throws: JarvisError.self) {
            try SimctlDefaultsEditor.run(
                URL(fileURLWithPath: "/nonexistent/xcrun"), arguments: [], timeout: .seconds(5))
        }
        #expect(error.message.contains("cannot run /nonexistent/xcrun"))
    }
}
