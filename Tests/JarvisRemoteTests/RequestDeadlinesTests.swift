import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisRemote

/// The request timeouts of one connection: exactly one of the answer and the expiry answers a
/// request, and an answered request leaves nothing behind.
@Suite struct RequestDeadlinesTests {
    @Test func anAnsweredRequestIsForgottenAndNeverExpires() {
        let deadlines = RequestDeadlines(timeout: .seconds(60))
        let expired = Locked(0)
        let tickets = (0..<1_000).map { _ in deadlines.start() }
        for ticket in tickets { deadlines.arm(ticket) { expired.withLock { $0 += 1 } } }
        #expect(deadlines.openCount == 1_000)
        // In order, as a lane answers them, and one out of order.
        #expect(deadlines.answer(tickets[500]))
        for ticket in tickets where ticket != tickets[500] {
            #expect(deadlines.isOpen(ticket) && deadlines.answer(ticket))
        }
        #expect(deadlines.openCount == 0)
        #expect(!deadlines.answer(tickets[0]), "answered once only")
        #expect(expired.current == 0)
    }

    @Test func aRequestPastItsDeadlineIsAnsweredByItsExpiryOnce() {
        let deadlines = RequestDeadlines(timeout: .milliseconds(1))
        let expired = Locked(0)
        let first = deadlines.start()
        deadlines.arm(first) { expired.withLock { $0 += 1 } }
        #expect(eventually { expired.current == 1 })
        #expect(!deadlines.isOpen(first))
        #expect(!deadlines.answer(first), "its expiry answered it")
        // One whose deadline passes before its expiry is armed: arming runs it at once.
        let second = deadlines.start()
        #expect(eventually { !deadlines.isOpen(second) })
        deadlines.arm(second) { expired.withLock { $0 += 1 } }
        #expect(expired.current == 2)
        #expect(deadlines.openCount == 0)
    }
}
