import Foundation
import JarvisCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 17 item 8 against the real agent: a client learns nothing about hidden names from
/// counts, and the agent never touches a hidden name's file, so an existing one and a missing
/// one cannot differ in time either.
@Suite(.serialized) struct HiddenNameProbingEndToEndTests {
    let sandbox: Sandbox
    let folder: URL

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: folder, ["user_name": "Ada"])
        try sandbox.writeSuite("com.apple.finder", in: folder, ["ShowPathbar": true])
        try sandbox.writeSuite("com.apple.dock", in: folder, ["autohide": true])
    }

    @Test func aNarrowedPatternGetsTheSameHiddenCountAsAnyOther() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        func hidden(_ arguments: String...) throws -> JSONValue? {
            let result = try sandbox.run(try Binaries.url("jarvis"), ["ls"] + arguments + ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONParser.parse(result.stdout)["hiddenSystemContainers"]
        }
        let all = try hidden()
        #expect(all?.int64Value == 2)
        for pattern in ["com.apple.f*", "com.apple.e*", "com.apple.d*", "com.apple.x*", "com.example.app"] {
            #expect(try hidden(pattern) == all, "\(pattern)")
        }
    }

    @Test(.enabled(if: SyscallTrace.isAvailable || ProcessInfo.processInfo.environment["CI"] != nil, "install strace (and run as root)"))
    func theAgentNeverTouchesAHiddenNamesFile() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let trace = try SyscallTrace(pid: agent.pid, filter: "%file", in: sandbox.root, stringLimit: 160)
        defer { trace.stop() }
        for suite in ["com.apple.finder", "com.apple.nothing"] {
            for command in [
                ["get", suite, "ShowPathbar"], ["set", suite, "ShowPathbar", "false"], ["rm", suite, "ShowPathbar"],
                ["reset", suite, "ShowPathbar"], ["get", suite, "/ShowPathbar/x"],
            ] {
                let result = try sandbox.run(try Binaries.url("jarvis"), command)
                #expect(result.status != 0, "\(command)")
            }
        }
        // A visible suite is read while traced, so the trace is known to work.
        let visible = try sandbox.jarvis("get", "com.example.app", "user_name")
        #expect(visible.stdout == "Ada\n")
        trace.wait { $0.contains("com.example.app") }
        let lines = trace.stop().split(separator: "\n")
        #expect(lines.contains { $0.contains("com.example.app") }, "the trace saw nothing")
        let touched = lines.filter { $0.contains("com.apple.finder") || $0.contains("com.apple.nothing") }
        #expect(touched.isEmpty, "the agent touched hidden names:\n\(touched.joined(separator: "\n"))")
    }

    /// Issue 17 item 8, timing: a hidden name answered faster than a missing one (it did no
    /// file system work) tells a client which names are hidden. A hidden name, existing or
    /// not, must make the very system calls a missing visible one makes.
    @Test(.enabled(if: SyscallTrace.isAvailable || ProcessInfo.processInfo.environment["CI"] != nil, "install strace (and run as root)"))
    func aHiddenNameMakesTheSystemCallsOfAMissingOne() throws {
        let agent = try AgentProcess(sandbox, ["--defaults-dir", folder.path])
        let socket = try agent.socket()
        var reader = LineReader(socket)
        var id = 0
        func call(_ method: String, _ params: String) throws -> Int {
            id += 1
            socket.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{\#(params)}}"# + "\n")
            #expect(try reader.nextJSON()?["id"]?.int64Value == Int64(id))
            return id
        }
        _ = try call("hello", #""client":"probe","protocolVersion":"1.0""#)
        let trace = try SyscallTrace(
            pid: agent.pid, filter: "%file,%desc,%network,clone,clone3", in: sandbox.root, stringLimit: 160)
        defer { trace.stop() }
        let suites = ["com.apple.finder", "com.apple.nothing", "com.example.nothing"]
        var asked: [(request: String, suite: String, id: Int)] = []
        // Each request twice, so that a first-time cost (a cache, a lazy value) shows too.
        for _ in 0..<2 {
            for (method, scanner) in [("get", #""scanner":"defaults","#), ("get", ""), ("delete", #""scanner":"defaults","#),
                ("reset", #""scanner":"defaults","#), ("set", "")]
            {
                for suite in suites {
                    let params = scanner + #""container":"\#(suite)","key":"ShowPathbar""#
                    let value = method == "set" ? #","value":false"# : ""
                    // Past the defaults folder's memo (PlistFolderStore.folderSeenLifetime): off the
                    // readiness loop, whether the folder is there is looked up again only after
                    // it, so without the pause a request's calls would depend on how soon it
                    // followed the last one, whatever its name.
                    Thread.sleep(forTimeInterval: 0.3)
                    asked.append(("\(method) \(scanner.isEmpty ? "" : "(scanner) ")", suite, try call(method, params + value)))
                }
            }
        }
        let last = asked.last?.id ?? 0
        trace.wait { $0.contains(#"\"id\":\#(last),"#) }
        let calls = SyscallTrace.callsPerRequest(trace.stop())
        for request in Set(asked.map(\.request)) {
            // A request during which the work pool started a thread (`clone`) is left out: that
            // cost is the pool's, whatever the name; every kind of request still has its others.
            let sequences = asked.filter { $0.request == request }.map { (suite: $0.suite, calls: calls[$0.id] ?? []) }
                .filter { !$0.calls.contains { $0.hasPrefix("clone") } }
            let missing = sequences.filter { $0.suite == "com.example.nothing" }
            #expect(missing.allSatisfy { $0.calls.contains("newfstatat") || $0.calls.contains("openat") }, "\(request): the trace saw no file call")
            for (suite, sequence) in sequences where sequence != missing.first?.calls {
                Issue.record("\(request)\(suite) made \(sequence), a missing suite \(missing.first?.calls ?? [])")
            }
        }
    }
}

extension SyscallTrace {
    /// The names of the file-system calls each request made, by request id: on any thread, from
    /// the read of the request's line up to the write of its answer (`sendto`). The agent runs
    /// a write on its work pool, not on the thread that read the line, so the calls are
    /// followed across threads; the test sends a request only after the last one was answered,
    /// so whatever happens in between is that request's. Plain reads and writes (the request's
    /// line, the threads waking each other) and the pool's own machinery (a thread started or
    /// woken: `mmap`, `eventfd2`, …) are left out: their order across threads depends on
    /// timing, not on the name asked for; what is left is the calls that look at files.
    static func callsPerRequest(_ log: String) -> [Int: [String]] {
        var result: [Int: [String]] = [:]
        var open: Int?  // the request being answered
        for line in log.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2 else { continue }
            let call = fields[1].trimmingCharacters(in: .whitespaces)
            guard !call.hasPrefix("<..."), !call.hasPrefix("+++"), let name = call.split(separator: "(").first.map(String.init)
            else { continue }
            if let request = open {
                if name == "sendto", call.contains(#"\"id\":\#(request),"#) {
                    open = nil
                } else if !machinery.contains(where: name.hasPrefix), name != "read", name != "write" {
                    result[request, default: []].append(name)
                }
            } else if name == "read", let id = requestID(call) {
                open = id
                result[id] = []
            }
        }
        return result
    }

    /// Calls a thread makes to start, wait or wake, whatever it serves. `timerfd` is Dispatch
    /// arming its one timer: a request's deadline needs it only when no earlier deadline is
    /// pending, which depends on when the requests before it came, not on the name.
    private static let machinery = ["epoll", "mmap", "munmap", "mprotect", "madvise", "eventfd", "timerfd"]

    private static func requestID(_ call: String) -> Int? {
        guard let range = call.range(of: #"\"id\":"#) else { return nil }
        return Int(call[range.upperBound...].prefix { $0.isNumber })
    }
}
