import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// Concurrency, crash safety and resource use of the real `jarvis-agent`.
@Suite(.serialized) struct DurabilityTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada", "counter": "start"])
    }

    @Test func fiftyClientsRaceWithExpectedRevisionsAndExactlyOneWinsEachRound() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let address = PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "counter")
        let clients = try (0..<50).map { index in
            try JarvisClient(endpoint: agent.unix, clientName: "racer-\(index)", timeout: .seconds(60))
        }
        var written: Set<String> = []
        for round in 0..<5 {
            let revision = try clients[0].get(address).revision
            let outcomes = Locked<[String: Int]>([:])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for (index, client) in clients.enumerated() {
                let value = "round \(round) client \(index)"
                written.insert(value)
                group.enter()
                Thread {
                    start.wait()
                    let outcome: String
                    do {
                        try client.set(address, to: .string(value), expectedRevision: revision)
                        outcome = "won"
                    } catch let error as JarvisError {
                        outcome = error.code.rawValue
                    } catch {
                        outcome = "\(error)"
                    }
                    outcomes.withLock { $0[outcome, default: 0] += 1 }
                    group.leave()
                }.start()
            }
            for _ in clients { start.signal() }
            group.wait()
            #expect(outcomes.current == ["won": 1, "conflict": 49], "round \(round): \(outcomes.current)")
        }
        let final = try clients[0].get(address)
        guard case .string(let text)? = final.value else {
            Issue.record("the final value is not a string: \(String(describing: final.value))")
            return
        }
        #expect(written.contains(text))
        let stored = try sandbox.readSuite("com.example.app", in: folder)
        #expect(stored["counter"] as? String == text)
        #expect(stored["user_name"] as? String == "Ada")
        // Every win was audited, with the revision it replaced.
        let history = try clients[0].call("history", ["action": "set"])["records"]?.arrayValue ?? []
        #expect(history.count == 5)
        for client in clients { client.close() }
    }

    @Test func killedMidWriteEveryFileHoldsItsOldOrNewValue() throws {
        var generator = SystemRandomNumberGenerator()
        for store in CrashStore.all {
            let data = sandbox.root.appendingPathComponent("crash-\(store.name)")
            try store.seed(data, "initial")
            var attempted: Set<String> = ["initial"]
            for round in 0..<8 {
                let agent = try AgentProcess(sandbox, store.agentArguments(data))
                let client = try JarvisClient(endpoint: agent.unix, timeout: .seconds(10))
                let values = Locked<[String]>([])
                let writer = Thread {
                    var index = 0
                    while true {
                        let value = "round \(round) write \(index)"
                        values.withLock { $0.append(value) }
                        do {
                            try client.set(store.address, to: .string(value))
                        } catch {
                            return
                        }
                        index += 1
                    }
                }
                writer.start()
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.4, using: &generator))
                kill(agent.pid, SIGKILL)
                agent.process.waitUntilExit()
                client.close()
                attempted.formUnion(values.current)
                for file in try store.files(data) {
                    let value = try store.read(file)
                    #expect(
                        value.map(attempted.contains) == true,
                        "\(store.name) \(file.lastPathComponent): \(String(describing: value))")
                }
            }
        }
    }

    @Test func descriptorsAndMemoryComeBackAfterTheCatalogueAnd10000Requests() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path, "--listen", "127.0.0.1:0"])
        // Warm up first: allocators and lazily built tables grow once, not per request.
        try exercise(agent, requests: 2000)
        #expect(settled(agent))
        let descriptors = agent.descriptorCount
        let memory = agent.residentKiB
        try exercise(agent, requests: 10_000)
        #expect(
            settled(agent) && agent.descriptorCount == descriptors,
            "descriptors \(descriptors) -> \(agent.descriptorCount)")
        #expect(agent.residentKiB - memory < 8 * 1024, "VmRSS \(memory) KiB -> \(agent.residentKiB) KiB")
        #expect(agent.isAlive)
    }

    /// The whole catalogue, then `requests` ordinary requests over ten connections.
    private func exercise(_ agent: AgentProcess, requests: Int) throws {
        for input in BadInput.all {
            let socket = try agent.socket(input.overTCP ? try agent.tcp() : agent.unix)
            var reader = LineReader(socket)
            socket.send(input.bytes)
            if case .noAnswer = input.outcome {} else { _ = try reader.next() }
            socket.close()
        }
        for batch in 0..<10 {
            let client = try JarvisClient(
                endpoint: batch.isMultiple(of: 2) ? agent.unix : try agent.tcp(), token: agent.record.token)
            for index in 0..<(requests / 10) {
                switch index % 4 {
                case 0: _ = try client.call("ping")
                case 1: _ = try client.call("list", ["limit": 50])
                case 2: _ = try client.call("get", ["container": "com.example.app", "key": "user_name"])
                default:
                    try client.set(
                        PreferenceAddress(scanner: "defaults", container: "com.example.app", key: "n"),
                        to: .integer(Int64(index)))
                }
            }
            client.close()
        }
    }

    /// Waits until the agent has released every finished connection's descriptors.
    private func settled(_ agent: AgentProcess) -> Bool {
        var last = -1
        for _ in 0..<100 {
            let now = agent.descriptorCount
            if now == last { return true }
            last = now
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}

/// One kind of file-backed store the crash test covers. Adding a store is one entry in `all`.
struct CrashStore: Sendable {
    var name: String
    var address: PreferenceAddress
    var agentArguments: @Sendable (URL) -> [String]
    var seed: @Sendable (URL, String) throws -> Void
    var files: @Sendable (URL) throws -> [URL]
    /// The value at `address` in one file, or nil when the file does not parse.
    var read: @Sendable (URL) throws -> String?

    static let all: [CrashStore] = [
        CrashStore(
            name: "defaults-plist",
            address: PreferenceAddress(scanner: "defaults", container: "com.example.crash", key: "value"),
            agentArguments: { ["--defaults-dir", $0.path] },
            seed: { folder, value in
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let data = try PropertyListSerialization.data(
                    fromPropertyList: ["value": value, "other": "kept"], format: .xml, options: 0)
                try data.write(to: folder.appendingPathComponent("com.example.crash.plist"))
            },
            files: { folder in
                try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                    .filter { $0.pathExtension == "plist" }
            },
            read: { file in
                let data = try Data(contentsOf: file)
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
                guard let plist, plist["other"] as? String == "kept" else { return nil }
                return plist["value"] as? String
            })
    ]
}
