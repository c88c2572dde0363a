import Foundation
// `import Jarvis` alone, as an app writes it: the agent, its default scanners and the core types.
import Jarvis
import Testing

/// Layers call only downward: the `jarvis` client links no scanner (and no libsecret
/// loader), while a host that imports `Jarvis` starts the agent with the default scanners,
/// and `jarvis demo` still serves the demo.
@Suite(.serialized) struct ModuleBoundaryEndToEndTests {
    /// Whether the binary's bytes contain `marker`.
    private func binary(_ name: String, contains marker: String) throws -> Bool {
        let bytes = try Data(contentsOf: try Binaries.url(name))
        return bytes.range(of: Data(marker.utf8)) != nil
    }

    @Test func theCLILinksNoScanner() throws {
        // The scanners' own type names and the libsecret loader's library name.
        for marker in ["14JarvisScanners", "libsecret-1.so", "DemoSetup"] {
            #expect(try !binary("jarvis", contains: marker), "jarvis contains \(marker)")
        }
        // The same markers are found where they are linked, so the check can fail.
        #expect(try binary("jarvis-agent", contains: "14JarvisScanners"))
        #expect(try binary("jarvis-agent", contains: "libsecret-1.so"))
    }

    @Test func aHostStartsTheAgentWithTheDefaultScannersWithoutNamingThem() throws {
        let sandbox = try Sandbox()
        let agent = try JarvisAgent.start(
            configuration: .debug, options: JarvisAgent.Options(name: "host", runtimeDirectory: sandbox.runtime, journalFolder: sandbox.journalFolder))
        defer { agent.stop() }
        let client = try JarvisClient(endpoint: .unix(path: agent.socketPath))
        defer { client.close() }
        #expect(try client.scanners().map(\.id) == ["defaults"])
    }

    @Test func jarvisDemoServesTheDemoThroughJarvisAgent() throws {
        let sandbox = try Sandbox()
        let demo = Process()
        demo.executableURL = try Binaries.url("jarvis")
        demo.arguments = ["demo-agent"]
        demo.environment = sandbox.environment
        demo.standardOutput = FileHandle.nullDevice
        demo.standardError = FileHandle.nullDevice
        try demo.run()
        defer {
            kill(demo.processIdentifier, SIGKILL)
            demo.waitUntilExit()
        }
        var listing: CommandResult?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let attempt = try sandbox.jarvis("get", "com.example.demo.prefs", "user_name")
            if attempt.status == 0 {
                listing = attempt
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(listing?.stdout.isEmpty == false, "the demo agent did not answer")
        // The demo agent is jarvis-agent in the same process (exec), so stopping it by its pid works.
        let agents = try sandbox.jarvis("agents")
        #expect(agents.stdout.contains("jarvis-demo"), "\(agents.stdout)")
        #expect(agents.stdout.contains("\(demo.processIdentifier)"), "\(agents.stdout)")
    }
}
