import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

/// `jarvis watch` and the agent's idle cost, with the real binaries.
@Suite(.serialized) struct WatchEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["launch_count": 3])
        try sandbox.writeSuite("private_data", in: folder, ["api_token": "sk-secret-value"])
    }

    /// utime + stime of a process in clock ticks, from /proc; nil where there is no /proc.
    private func cpuTicks(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    private func endpoint(_ agent: Process) -> Endpoint {
        .unix(path: sandbox.runtime.appendingPathComponent("\(agent.processIdentifier).sock").path)
    }

    @Test func anIdleAgentUsesNoCPU() throws {
        let agent = try sandbox.startAgent(["--demo"])
        let pid = agent.processIdentifier
        guard cpuTicks(pid) != nil else { return }  // no /proc on this platform
        Thread.sleep(forTimeInterval: 0.5)
        let before = try #require(cpuTicks(pid))
        Thread.sleep(forTimeInterval: 3)
        let after = try #require(cpuTicks(pid))
        #expect(after - before <= 1, "no watcher: \(after - before) ticks in 3 s")

        // One connected client that watches nothing, then one that watched and stopped.
        let client = try JarvisClient(endpoint: endpoint(agent))
        let subscription = try client.watch()
        try client.unwatch(subscription.id)
        Thread.sleep(forTimeInterval: 0.5)
        let connected = try #require(cpuTicks(pid))
        Thread.sleep(forTimeInterval: 3)
        let later = try #require(cpuTicks(pid))
        #expect(later - connected <= 1, "an idle client: \(later - connected) ticks in 3 s")
        client.close()
    }

    @Test func aPlistRewrittenByAnotherProcessIsSeen() throws {
        let agent = try sandbox.startAgent(["--defaults-dir", folder.path])
        let client = try JarvisClient(endpoint: endpoint(agent))
        _ = try client.watch(container: "com.example.*")
        let path = folder.appendingPathComponent("com.example.app.plist").path
        let plist =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>launch_count</key><integer>4</integer></dict></plist>"
        let child = try Process.run(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "printf '%s' \"$2\" > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"", "sh", path, plist])
        child.waitUntilExit()
        let seen = try #require(try client.nextChange(timeout: .seconds(10)))
        #expect(seen.changes.map(\.kind) == ["updated"])
        #expect(seen.changes.first?.old?.value == .integer(3))
        #expect(seen.changes.first?.item?.value == .integer(4))
        // The hidden suite changes too, but never shows up.
        try sandbox.writeSuite("private_data", in: folder, ["api_token": "sk-other"])
        #expect(try client.nextChange(timeout: .seconds(2)) == nil)
    }

    @Test func jarvisWatchPrintsChangesAndStopsOnCtrlC() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let watch = Process()
        watch.executableURL = try Binaries.url("jarvis")
        watch.arguments = ["watch", "--json"]
        watch.environment = sandbox.environment
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        // The subscription exists once the agent has a watcher; retry the write until seen.
        var line = ""
        let deadline = Date().addingTimeInterval(15)
        var value = 10
        let reader = output.fileHandleForReading
        nonisolated(unsafe) var buffer = Data()
        let lock = NSLock()
        reader.readabilityHandler = { handle in
            let data = handle.availableData
            lock.lock()
            buffer.append(data)
            lock.unlock()
        }
        while Date() < deadline, line.isEmpty {
            value += 1
            _ = try sandbox.jarvis("set", "com.example.app", "launch_count", "--int", "\(value)")
            Thread.sleep(forTimeInterval: 0.5)
            lock.lock()
            line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            lock.unlock()
        }
        reader.readabilityHandler = nil
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["kind"] as? String == "updated")
        #expect(object?["key"] as? String == "launch_count")
        #expect(object?["sequence"] as? Int != nil)
        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        #expect(watch.terminationReason == .exit)
        #expect(watch.terminationStatus == 0)
    }
}
