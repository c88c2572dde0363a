import Foundation
import JarvisCore
import Testing

/// Against an agent that allows revealing, the CLI shows a secret's value only when its user
/// asked with `--reveal`: `diff` and `import --dry-run` included.
@Suite struct RevealConsentEndToEndTests {
    @Test func diffAndADryRunImportNeedTheUsersOwnReveal() throws {
        let sandbox = try Sandbox()
        let vault = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        try Data("s3cret-value".utf8).write(to: vault.appendingPathComponent("api_token"))
        try sandbox.startAgent(["--secrets-dir", vault.path, "--allow-reveal"])
        let empty = sandbox.root.appendingPathComponent("empty.json")
        try Data(#"{"format":"jarvis-snapshot","version":1,"agent":{},"exported":"2024-01-01T00:00:00Z","items":[]}"#.utf8)
            .write(to: empty)

        let diff = try sandbox.jarvis("diff", empty.path, "-")
        #expect(diff.stdout.contains("api_token"), "\(diff.stdout) \(diff.stderr)")
        #expect(!diff.stdout.contains("s3cret-value"), "diff printed a secret without --reveal")
        let revealed = try sandbox.jarvis("diff", empty.path, "-", "--reveal")
        #expect(revealed.stdout.contains("s3cret-value"), "\(revealed.stdout) \(revealed.stderr)")

        // A guess in a snapshot: the dry run neither prints the current secret nor confirms the guess.
        let guess = sandbox.root.appendingPathComponent("guess.json")
        try Data(
            #"{"format":"jarvis-snapshot","version":1,"agent":{},"exported":"2024-01-01T00:00:00Z","items":[{"scanner":"secrets","container":"vault","key":"api_token","type":"string","value":"s3cret-value","revision":"0000000000000000"}]}"#
                .utf8
        ).write(to: guess)
        let dryRun = try sandbox.jarvis("import", guess.path, "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(!dryRun.stdout.contains("0 to change"), "the dry run confirmed the guess: \(dryRun.stdout)")
        let current = dryRun.stdout.split(separator: "\n").first { $0.contains("api_token") } ?? ""
        #expect(current.contains("•"), "\(dryRun.stdout)")
        #expect(try String(contentsOf: vault.appendingPathComponent("api_token"), encoding: .utf8) == "s3cret-value")
    }
}
