import Foundation
import JarvisCore
import JarvisRemote
import JarvisTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 item 6 against the real agent: clients that ask for the listing of an 11 MB,
/// 200,000-key JSON file and never read cost the agent its output budget, not a copy of the
/// answer each (ten such clients once took it to 550 MB, forty to 1.66 GB).
@Suite(.serialized) struct ListMemoryEndToEndTests {
    /// The agent's output budget (`JarvisAgent.Options.maxPendingOutputBytes`, which
    /// `jarvis-agent` keeps at its default), and what one connection may hold beyond it
    /// (`OutputBudget.allowance`, two chunks of a streamed answer).
    static let budget = 8 << 20
    static let allowance = 2 * 64 * 1024
    /// Room for what the measurement itself cannot pin down: the allocator's arenas and
    /// fragmentation, thread stacks touched, the kernel's accounting in pages.
    static let margin = 24 << 20

    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = "{\n"
        for index in 0..<200_000 {
            text += #"  "setting_\#(index)": "value \#(index) of the large configuration file",\#n"#
        }
        text += #"  "last": true\#n}\#n"#
        try Data(text.utf8).write(to: folder.appendingPathComponent("large.json"))
    }

    @Test(arguments: [10, 40])
    func clientsThatNeverReadALargeListingCostTheBudgetNotACopyEach(clients: Int) throws {
        let size = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("large.json").path)[
            .size] as? Int ?? 0
        #expect(size > 11_000_000)
        let agent = try AgentProcess(sandbox, ["--files", folder.path])
        let request = #"{"jsonrpc":"2.0","id":1,"method":"list","params":{"scanner":"files","container":"large.json"}}"#
        // One client reads the whole listing: the agent then holds one parsed copy of the file,
        // and its peak so far is what parsing and answering once cost.
        let reader = try agent.socket()
        reader.send(request + "\n")
        var lines = LineReader(reader)
        let answered = try lines.next(timeout: .seconds(120))?.count ?? 0
        #expect(answered > size, "the listing was cut short: \(answered) bytes")
        let once = try Self.settledMemory(of: agent)
        // Then clients that send the same request and never read.
        var idle: [Socket] = []
        defer { idle.forEach { $0.close() } }
        for _ in 0..<clients {
            let socket = try agent.socket()
            socket.send(request + "\n")
            idle.append(socket)
        }
        for socket in idle {
            #expect(try socket.wait(for: Int16(POLLIN), until: .now + .seconds(60)), "a client got no answer")
        }
        let after = try Self.settledMemory(of: agent)
        let bound = once.peak + Self.budget + clients * Self.allowance + Self.margin
        #expect(
            after.peak <= bound,
            "\(clients) clients took the agent to \(after.peak >> 20) MiB (bound \(bound >> 20) MiB: \(once.peak >> 20) MiB after one full listing + the 8 MiB budget + \(clients) × 128 KiB + \(Self.margin >> 20) MiB)"
        )
        #expect(agent.answersANewClient())
    }

    /// The agent's peak and resident memory in bytes once both have stayed the same for two
    /// seconds (the agent has stopped growing), within two minutes.
    static func settledMemory(of agent: AgentProcess) throws -> (peak: Int, resident: Int) {
        func read() -> (peak: Int, resident: Int) {
            let status = (try? String(contentsOfFile: "/proc/\(agent.pid)/status", encoding: .utf8)) ?? ""
            func field(_ name: String) -> Int {
                let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
                return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1) * 1024
            }
            return (field("VmHWM"), field("VmRSS"))
        }
        let deadline = ContinuousClock.now + .seconds(120)
        var last = read()
        var since = ContinuousClock.now
        while ContinuousClock.now < deadline {
            usleep(100_000)
            let now = read()
            if now != last {
                (last, since) = (now, .now)
            } else if ContinuousClock.now - since >= .seconds(2) {
                return now
            }
        }
        throw HarnessError("the agent's memory did not settle within 120 s (last \(last.peak >> 20) MiB peak)")
    }
}
