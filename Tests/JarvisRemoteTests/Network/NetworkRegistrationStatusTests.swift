import Testing

@testable import JarvisRemote

/// What the DNS-SD registration callback's replies mean (issue 17 item 12): the name the
/// system chose on a conflict, and failures after the registration started, both reported.
@Suite struct NetworkRegistrationStatusTests {
    @Test func anAddReplyIsTheNameRegistered() {
        let status = NetworkRegistrationStatus.reply(flags: 0x2, errorCode: 0, name: "Notes (2)")
        #expect(status == .registered(name: "Notes (2)"))
        let message = status.message(requested: "Notes")
        #expect(message?.contains("advertised as 'Notes (2)'") == true, "\(message ?? "")")
        // Registered under the very name asked for: nothing to say.
        #expect(NetworkRegistrationStatus.reply(flags: 0x2, errorCode: 0, name: "Notes").message(requested: "Notes") == nil)
    }

    @Test func anErrorOrARemovalIsAFailure() {
        let failed = NetworkRegistrationStatus.reply(flags: 0, errorCode: -65537, name: nil)
        #expect(failed == .failed(code: -65537))
        #expect(failed.message(requested: "Notes")?.contains("DNS-SD error -65537") == true)
        // A reply without the add flag withdraws the service (a conflict it could not resolve).
        let removed = NetworkRegistrationStatus.reply(flags: 0, errorCode: 0, name: "Notes")
        #expect(removed == .failed(code: -65548))
        #expect(removed.message(requested: "Notes")?.contains("name conflict") == true)
        #expect(NetworkRegistrationStatus.pending.message(requested: "Notes") == nil)
    }
}
