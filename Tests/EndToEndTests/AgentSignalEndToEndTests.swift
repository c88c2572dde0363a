import Foundation
import Testing

/// `jarvis-agent` ends cleanly on SIGTERM and SIGINT however early they come: a supervisor (or
/// a test) that stops it the moment its discovery file appears must never find it still
/// running, or its record left behind.
@Suite struct AgentSignalEndToEndTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalSentAsSoonAsTheRecordAppearsStopsTheAgent(signalNumber: Int32) throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for _ in 0..<15 {
            let agent = try sandbox.startAgent(["--defaults-dir", folder.path])
            kill(agent.processIdentifier, signalNumber)
            let deadline = Date().addingTimeInterval(20)
            while agent.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(!agent.isRunning, "the agent ignored a signal sent right after it published its record")
            if agent.isRunning {
                kill(agent.processIdentifier, SIGKILL)
                return
            }
            #expect(agent.terminationStatus == 0)
            let record = sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).json")
            #expect(!FileManager.default.fileExists(atPath: record.path), "the stopped agent left its record")
        }
    }
}
