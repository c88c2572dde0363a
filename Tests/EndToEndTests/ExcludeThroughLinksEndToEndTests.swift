import Foundation
import Testing

/// Issue 27 item 3 through the real `jarvis-agent` and `jarvis`: a file `--exclude` leaves out
/// is neither listed, read nor written under any name, a link to it inside the served folder
/// (or a link to its folder) included.
@Suite(.serialized) struct ExcludeThroughLinksEndToEndTests {
    @Test func anExcludedFileIsServedUnderNoName() throws {
        let sandbox = try Sandbox()
        let project = sandbox.root.appendingPathComponent("project")
        let vault = project.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        let secret = #"{"token":"s3cret"}"#
        try Data(secret.utf8).write(to: project.appendingPathComponent("secret.json"))
        try Data(secret.utf8).write(to: vault.appendingPathComponent("local.json"))
        try Data(#"{"theme":"dark"}"#.utf8).write(to: project.appendingPathComponent("app.json"))
        let links = FileManager.default
        try links.createSymbolicLink(
            atPath: project.appendingPathComponent("alias.json").path, withDestinationPath: "secret.json")
        try links.createSymbolicLink(
            atPath: project.appendingPathComponent("nested.json").path, withDestinationPath: "secrets/local.json")
        try links.createSymbolicLink(
            atPath: project.appendingPathComponent("shelf").path, withDestinationPath: "secrets")
        try sandbox.startAgent(["--files", project.path, "--exclude", "secret*"])

        let listing = try sandbox.jarvis("ls", "--json")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("dark"), "\(listing.stdout)")
        #expect(!listing.stdout.contains("s3cret"), "\(listing.stdout)")
        #expect(!listing.stdout.contains("alias.json") && !listing.stdout.contains("nested.json"), "\(listing.stdout)")
        for name in ["alias.json", "nested.json", "shelf/local.json", "secret.json"] {
            let get = try sandbox.jarvis("get", "files:\(name)", "token")
            #expect(get.status != 0 && !get.stdout.contains("s3cret"), "get \(name): \(get.stdout)")
            #expect(get.stderr.contains("not served"), "get \(name): \(get.stderr)")
            let set = try sandbox.jarvis("set", "files:\(name)", "token", "stolen")
            #expect(set.status != 0, "set \(name) was accepted")
            let delete = try sandbox.jarvis("rm", "files:\(name)", "token")
            #expect(delete.status != 0, "rm \(name) was accepted")
        }
        // Nothing was written through any name.
        #expect(try String(contentsOf: project.appendingPathComponent("secret.json"), encoding: .utf8) == secret)
        #expect(try String(contentsOf: vault.appendingPathComponent("local.json"), encoding: .utf8) == secret)
        #expect(try sandbox.jarvis("get", "files:app.json", "theme").stdout.contains("dark"))
    }
}
