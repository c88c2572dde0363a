import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `jarvis agents --network` and advertised names, where Bonjour does not exist.
@Suite struct NetworkEndToEndTests {
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/usr/bin/xcrun")))
    func networkDiscoverySaysPlainlyItIsNotAvailableHere() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.jarvis("agents", "--network")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not available on this platform"), "\(result.stderr)")
        #expect(result.stderr.contains("--agent tcp://HOST:PORT --token TOKEN"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownAgentNameIsStillNotFound() throws {
        let sandbox = try Sandbox()
        try sandbox.startAgent(["--demo"])
        let result = try sandbox.jarvis("--agent", "Some Phone", "ls")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no running agent named or numbered 'Some Phone'"), "\(result.stderr)")
    }

    @Test func aFixedTokenFromAFileIsTheOneRequired() throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appendingPathComponent("token")
        let fixed = "lab-phone-7f3a9c1e5b2d4f60a8c7e1d2"
        try Data((fixed + "\n").utf8).write(to: file)
        chmod(file.path, 0o600)
        let agent = try AgentProcess(sandbox, ["--demo", "--listen", "0", "--token-file", file.path])
        #expect(agent.record.token == fixed)
        let tcp = try agent.tcp().description
        let listing = try sandbox.jarvis("--agent", tcp, "--token", fixed, "ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        let wrong = try sandbox.jarvis("--agent", tcp, "--token", fixed + "x", "ls")
        #expect(wrong.status == 1)

        try Data("short".utf8).write(to: file)
        let weak = try sandbox.run(
            try Binaries.url("jarvis-agent"), ["--demo", "--listen", "0", "--token-file", file.path])
        #expect(weak.status == 1)
        #expect(weak.stderr.contains("at least 16 characters"), "\(weak.stderr)")
    }

    @Test func advertisingNeedsTCPAndSaysPlainlyWhereBonjourIsMissing() throws {
        let sandbox = try Sandbox()
        let agent = try Binaries.url("jarvis-agent")
        let noTCP = try sandbox.run(agent, ["--demo", "--advertise"])
        #expect(noTCP.status == 64)
        #expect(noTCP.stderr.contains("add --listen"))
        if !FileManager.default.fileExists(atPath: "/usr/bin/xcrun") {
            let here = try sandbox.run(agent, ["--demo", "--listen", "0", "--advertise"])
            #expect(here.status == 1)
            #expect(here.stderr.contains("advertising the agent with Bonjour is not available on this platform"))
        }
    }
}
