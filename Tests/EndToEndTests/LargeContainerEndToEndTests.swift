import Foundation
import JarvisTestSupport
import Testing

/// A suite over 512 KB is named, with its size and why it matters, by `jarvis ls` and the
/// terminal inspector, on the real binaries (the browser's sidebar: WebEndToEndTests).
@Suite(.serialized) struct LargeContainerEndToEndTests {
    let sandbox: Sandbox
    let folder: URL
    static let warning =
        "large: about 600 KB of values; tvOS stops an app whose defaults pass 1 MB, and UserDefaults reads a suite whole at launch"

    init() throws {
        sandbox = try Sandbox()
        folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.big", in: folder, ["cache": String(repeating: "x", count: 600 * 1024)])
        try sandbox.writeSuite("com.example.small", in: folder, ["theme": "dark"])
    }

    @Test func jarvisLsNamesALargeSuiteUnderItsName() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        let big = try #require(lines.firstIndex(of: "defaults:com.example.big"), "\(listing.stdout)")
        #expect(lines[big + 1] == "  " + Self.warning)
        let small = try #require(lines.firstIndex(of: "defaults:com.example.small"))
        #expect(!lines[small + 1].contains("large"))
        // A key filter lists parts of suites: no size is named from them.
        #expect(!(try sandbox.jarvis("ls", "--key", "cache")).stdout.contains("large:"))
    }

    @Test(.enabled(if: Tmux.isAvailable || OptionalTool.inCI, OptionalTool.hint(["tmux"], install: "apt-get install tmux")))
    func theTerminalInspectorNamesItBesideTheSuite() throws {
        try sandbox.startAgent(["--defaults-dir", folder.path])
        let jarvis = try Binaries.url("jarvis").path
        let tmux = try Tmux(
            command: "'\(jarvis)' inspect; sleep 60", environment: sandbox.environment, folder: sandbox.root,
            columns: 160)
        let screen = try tmux.wait(for: "com.example.small")
        let big = screen.split(separator: "\n").first { $0.contains("com.example.big") } ?? ""
        #expect(big.contains(Self.warning), "\(screen)")
        let small = screen.split(separator: "\n").first { $0.contains("com.example.small") } ?? ""
        #expect(!small.contains("large"))
        try tmux.type("q")
    }
}
