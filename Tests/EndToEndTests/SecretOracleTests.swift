import Foundation
import JarvisCore
import Testing

/// A client that may write but not reveal (the `.debug` preset) must learn nothing about a
/// secret by storing guesses beside it and comparing what the agent shows.
@Suite struct SecretOracleTests {
    @Test func aGuessStoredBesideASecretNeverSharesItsFingerprintOrRevision() throws {
        let sandbox = try Sandbox()
        let vault = sandbox.root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        try Data("4821".utf8).write(to: vault.appendingPathComponent("pin"))
        try sandbox.startAgent(["--secrets-dir", vault.path])
        let guess = try sandbox.jarvis("set", "vault", "scratch", "4821")
        #expect(guess.status == 0, "\(guess.stderr)")
        let listing = try sandbox.jarvis("ls", "vault", "--json")
        let json = try JSONParser.parse(listing.stdout)
        let items = json["items"]?.arrayValue ?? []
        func field(_ key: String, _ name: String) -> String? {
            items.first { $0["key"]?.stringValue == key }?[name]?.stringValue
        }
        let pin = try #require(field("pin", "fingerprint"))
        let scratch = try #require(field("scratch", "fingerprint"))
        #expect(pin != scratch, "equal values under different keys showed the same fingerprint")
        #expect(field("pin", "revision") != field("scratch", "revision"))
        // The same value under the same key keeps its fingerprint (it still tells a change).
        let again = try JSONParser.parse(try sandbox.jarvis("ls", "vault", "--json").stdout)
        #expect(again["items"]?.arrayValue?.first { $0["key"]?.stringValue == "pin" }?["fingerprint"]?.stringValue == pin)
    }
}
