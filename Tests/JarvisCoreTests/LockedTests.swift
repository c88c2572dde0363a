import Foundation
import Testing

@testable import JarvisCore

/// The public lock box: typed errors pass through unchanged, and it makes a host's class
/// `Sendable` without `@unchecked`.
@Suite struct LockedTests {
    /// Compiles only because `withLock` keeps the body's error type: `error` is a
    /// `JarvisError` here, with no cast.
    @Test func theBodysErrorTypeComesOutUnchanged() {
        let box = Locked(0)
        do throws(JarvisError) {
            try box.withLock { (value: inout Int) throws(JarvisError) in
                value += 1
                throw JarvisError(.conflict, "changed meanwhile")
            }
        } catch {
            #expect(error.code == .conflict)
        }
        #expect(box.current == 1, "what the body did before it threw stays done")
        let doubled = box.withLock { value -> Int in
            value *= 2
            return value
        }
        #expect(doubled == 2)
    }

    final class Counter: Sendable {
        let count = Locked(0)
    }

    @Test func manyThreadsSeeOneValue() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1000 { counter.count.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.count.current == 8000)
    }
}
