import Foundation
import Testing

@testable import jarvis

/// `jarvis demo`'s "not on your PATH" hint: said only when a shell would not find this
/// program by name.
@Suite struct CommandOnPathTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("on-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("build"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("other"), withIntermediateDirectories: true)
        let program = root.appendingPathComponent("build/jarvis")
        try Data("#!/bin/sh\n".utf8).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
    }

    var program: URL { root.appendingPathComponent("build/jarvis") }

    @Test func theBuildFolderItselfOnPathFindsIt() {
        #expect(CommandOnPath.finds("jarvis", executable: program, path: "/nowhere:\(root.path)/build"))
    }

    @Test func aLinkOnPathToTheProgramFindsIt() throws {
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("bin/jarvis"), withDestinationURL: program)
        #expect(CommandOnPath.finds("jarvis", executable: program, path: "\(root.path)/bin"))
    }

    @Test func anotherProgramOfTheSameNameIsNotThisOne() throws {
        let other = root.appendingPathComponent("other/jarvis")
        try Data("#!/bin/sh\n".utf8).write(to: other)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: other.path)
        #expect(!CommandOnPath.finds("jarvis", executable: program, path: "\(root.path)/other"))
    }

    @Test func noFolderOrAnEmptyPathFindsNothing() {
        #expect(!CommandOnPath.finds("jarvis", executable: program, path: ""))
        #expect(!CommandOnPath.finds("jarvis", executable: program, path: "\(root.path)/bin:"))
    }
}
