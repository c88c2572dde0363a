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

    /// A class with mutable state and no lock of its own: not `Sendable`.
    final class Unguarded {
        var count = 0
    }

    private func isSendable<T>(_: T) -> Bool { false }
    private func isSendable<T: Sendable>(_: T) -> Bool { true }

    /// A box is `Sendable` only when its value is: a box holding a non-Sendable class could
    /// otherwise carry a shared reference to it across threads.
    @Test func aBoxIsSendableOnlyWhenItsValueIs() {
        #expect(isSendable(Locked(0)))
        #expect(isSendable(Locked([String: Int]())))
        #expect(!isSendable(Locked(Unguarded())))
    }

    /// A non-Sendable value can still be kept, and used inside the lock.
    @Test func aNonSendableValueIsUsedInsideTheLock() {
        let box = Locked(Unguarded())
        let count = box.withLock { value -> Int in
            value.count += 2
            return value.count
        }
        #expect(count == 2)
    }
}
