import Dispatch
import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

/// The work pool alone: bounded, fair to lanes whose jobs move, in order per lane.
@Suite(.serialized) struct WorkPoolTests {
    @Test func thePoolIsBoundedAndLanesQueue() {
        let pool = WorkPool(threadLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        let ran = Locked(0)
        let lanes = (0..<6).map { _ in pool.lane() }
        for lane in lanes {
            lane.submit {
                ran.withLock { $0 += 1 }
                gate.wait()
            }
        }
        #expect(eventually { ran.current == 2 })
        #expect(pool.threadCount == 2)
        for _ in 0..<6 { gate.signal() }
        #expect(eventually { ran.current == 6 })
        #expect(pool.threadCount <= 2)
    }

    /// Jobs stuck longer than `slowAfter` stop counting against the limit: a lane in line gets
    /// a thread of its own, up to the slow threads' bound, and past it lanes wait.
    @Test func stuckJobsDoNotStarveOtherLanesUpToTheBound() {
        let pool = WorkPool(threadLimit: 2, slowThreadLimit: 3, slowAfter: .milliseconds(50))
        let gate = DispatchSemaphore(value: 0)
        let stuck = Locked(0)
        defer { for _ in 0..<8 { gate.signal() } }
        for _ in 0..<5 {
            pool.lane().submit {
                stuck.withLock { $0 += 1 }
                gate.wait()
            }
        }
        // 2 threads, then 3 more as the first ones count as slow: all 5 stuck jobs run.
        #expect(eventually { stuck.current == 5 })
        #expect(pool.threadCount == 5)
        let ran = Locked(false)
        pool.lane().submit { ran.withLock { $0 = true } }
        // The bound is reached: the sixth lane waits until a stuck job returns.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!ran.current)
        #expect(pool.threadCount == 5)
        gate.signal()
        #expect(eventually { ran.current })
    }

    /// A lane leaves at most one stuck job behind: after a second one times out too, its next
    /// jobs wait; a job given up before it started never runs.
    @Test func aLaneLeavesOneStuckJobBehind() {
        let pool = WorkPool(threadLimit: 4)
        let lane = pool.lane()
        let gate = DispatchSemaphore(value: 0)
        let ran = Locked<[Int]>([])
        defer { for _ in 0..<4 { gate.signal() } }
        let first = lane.submit {
            ran.withLock { $0.append(1) }
            gate.wait()
        }
        #expect(eventually { ran.current == [1] })
        lane.abandon(first)
        let second = lane.submit {
            ran.withLock { $0.append(2) }
            gate.wait()
        }
        #expect(eventually { ran.current == [1, 2] })
        lane.abandon(second)
        let dropped = lane.submit { ran.withLock { $0.append(3) } }
        lane.submit { ran.withLock { $0.append(4) } }
        lane.abandon(dropped)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(ran.current == [1, 2], "the lane went on past a second stuck job")
        gate.signal()
        gate.signal()
        #expect(eventually { ran.current == [1, 2, 4] })
    }
}
