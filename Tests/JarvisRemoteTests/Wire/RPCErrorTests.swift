import Testing

@testable import JarvisRemote

/// The errors the agent sends, as a person reads them.
@Suite struct RPCErrorTests {
    @Test func aTimeoutSaysHowLongItWaitedAtEveryScale() {
        let said: [(Duration, String)] = [
            (.seconds(15), "15 s"), (.milliseconds(500), "500 ms"), (.milliseconds(1500), "1.5 s"),
            (.milliseconds(2050), "2.05 s"), (.microseconds(1), "1 ms"), (.microseconds(999_600), "1 s"),
            (.milliseconds(1), "1 ms"), (.seconds(1), "1 s"),
        ]
        for (timeout, words) in said {
            #expect(RPCError.spoken(timeout) == words, "\(timeout)")
            #expect(RPCError.timedOut(after: timeout).message.contains("within \(words):"), "\(timeout)")
        }
    }
}
