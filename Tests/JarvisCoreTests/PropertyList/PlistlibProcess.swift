import Foundation
import Testing

/// Runs Python's `plistlib` for the codec's round trips: a script reads `sys.argv[1]` and
/// writes `sys.argv[2]`, so no pipe can fill up. Tests that need it are skipped without
/// python3, and fail under CI (`CI` set), where it is installed.
enum PlistlibProcess {
    /// The python3 on PATH, or nil.
    static let python: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether tests that need python3 run.
    static var runs: Bool { python != nil || !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Runs `script` with `input` in a file; returns what it wrote to its output file.
    static func run(_ script: String, input: [UInt8] = []) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plistlib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inFile = folder.appendingPathComponent("in")
        let outFile = folder.appendingPathComponent("out")
        try Data(input).write(to: inFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python ?? "/usr/bin/python3")
        process.arguments = ["-c", "import plistlib, sys, datetime\n" + script, inFile.path, outFile.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PlistlibFailure(message: String(decoding: message, as: UTF8.self))
        }
        return [UInt8](try Data(contentsOf: outFile))
    }

    struct PlistlibFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "python3 failed: \(message)" }
    }
}
