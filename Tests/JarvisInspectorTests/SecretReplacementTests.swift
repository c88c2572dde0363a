import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import JarvisInspector

/// A masked secret is never overwritten blindly: editing starts from a value, so a mask opens
/// no editor; only a confirmed, non-empty replacement writes over it, in every face.
@Suite struct SecretReplacementTests {
    typealias Kind = InspectorSessionTests.Kind

    @Test(arguments: Kind.allCases) func anEmptyOrUntouchedFieldNeverReplacesAMaskedSecret(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        let file = fixture.secrets.appendingPathComponent("api_token")
        let row = try #require(session.state.row(for: address))
        #expect(row.has(.masked) && !row.isEditable && row.isReplaceable)
        // Its status says what can be done to it, never "read-only" beside Replace and Delete.
        let status = try #require(session.state.detail(address)?.facts.first { $0.label == "status" }?.text)
        #expect(status.contains("masked") && status.contains("replace") && status.contains("delete"), "\(status)")
        #expect(!status.contains("read-only"), "\(status)")
        // `e` on a mask: no editor, and a message that says what to do instead.
        let refusal = #expect(throws: JarvisError.self) { try session.draft(for: .key(address)) }
        #expect(refusal?.message.contains("masked secret") == true)
        #expect(refusal?.message.contains("replace") == true)
        // A draft a face made by hand is refused too: nothing is sent over the mask.
        let item = try #require(session.state.items[address])
        let blind = ValueDraft(address: address, type: .string, text: "", expectedRevision: item.revision)
        #expect(throws: JarvisError.self) { try session.save(blind, text: "") }
        #expect(throws: JarvisError.self) { try session.save(blind, text: "typed") }
        #expect(try String(contentsOf: file, encoding: .utf8) == "hunter2")
        // Replacing is its own intent: refused empty, refused unconfirmed, sent once confirmed.
        let replacement = try session.replacementDraft(for: address)
        #expect(replacement.replacesSecret && replacement.text.isEmpty)
        #expect(replacement.confirmation?.contains("Replace the secret api_token") == true)
        let empty = #expect(throws: JarvisError.self) { try session.save(replacement, text: "", confirmed: true) }
        #expect(empty?.message.contains("empty value is never saved over a secret") == true)
        #expect(throws: JarvisError.self) { try session.check(replacement, text: "") }
        #expect(throws: JarvisError.self) { try session.save(replacement, text: "s3cret") }
        #expect(try String(contentsOf: file, encoding: .utf8) == "hunter2")
        #expect(try session.check(replacement, text: "s3cret") == .string("s3cret"))
        guard case .saved = try session.save(replacement, text: "s3cret", confirmed: true) else {
            Issue.record("a confirmed replacement must be saved")
            return
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "s3cret")
    }

    @Test(arguments: Kind.allCases) func aRevealedSecretIsEditedFromItsValue(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(kind, fixture)
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        try session.reveal(address)
        let row = try #require(session.state.row(for: address))
        #expect(row.isEditable && !row.isReplaceable)
        let draft = try session.draft(for: .key(address))
        #expect(draft.text == "hunter2" && !draft.replacesSecret && draft.confirmation == nil)
        // A revealed secret is not a mask: there is nothing to replace blindly.
        #expect(throws: JarvisError.self) { try session.replacementDraft(for: address) }
    }

    @Test(arguments: Kind.allCases) func noReplacementInAReadOnlyAgent(_ kind: Kind) throws {
        let fixture = try InspectorFixture()
        let (session, agent) = try InspectorSessionTests().session(
            kind, fixture, InspectorFixture.configuration(production: true))
        defer { session.close(); agent.stop() }
        let address = PreferenceAddress(scanner: "secrets", container: "vault", key: "api_token")
        #expect(session.state.row(for: address)?.isReplaceable == false)
        #expect(throws: JarvisError.self) { try session.replacementDraft(for: address) }
    }
}
