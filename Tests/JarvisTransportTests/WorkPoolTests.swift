import Dispatch
import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisTransport

/// The work pool alone: bounded, fair to lanes whose jobs move, in order per lane.
@Suite(.serialized) struct WorkPoolTests {
    @Test func thePoolIsBoundedAndLanesQueue() {
        let pool = WorkPool(threadLimit: 2, groupLimit: 2)
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

    /// One group's stuck jobs hold at most its limit of threads: lanes of other groups behind
    /// them in line still run, and past the pool's bound every lane waits.
    @Test func oneGroupsStuckJobsLeaveThreadsToTheOthers() {
        let pool = WorkPool(threadLimit: 4, groupLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<16 { gate.signal() } }
        /// Jobs running now and the most at once, in all and by group.
        struct Running { var now: [String: Int] = [:], most: [String: Int] = [:] }
        let running = Locked(Running())
        let done = Locked<[String]>([])
        func submit(_ group: String?, stuck: Bool) {
            let name = group ?? "none"
            pool.lane().submit(group: group) {
                running.withLock { running in
                    for key in [name, "all"] {
                        running.now[key, default: 0] += 1
                        running.most[key] = max(running.most[key] ?? 0, running.now[key] ?? 0)
                    }
                }
                if stuck { gate.wait() }
                running.withLock { running in for key in [name, "all"] { running.now[key, default: 0] -= 1 } }
                done.withLock { $0.append(name) }
            }
        }
        for _ in 0..<6 { submit("keyring", stuck: true) }
        #expect(eventually { running.current.now["keyring"] == 2 })
        // Lanes of another group, and of none, behind the four keyring lanes in line.
        for group in ["files", nil, "files"] { submit(group, stuck: false) }
        #expect(eventually { done.current.count == 3 }, "\(done.current)")
        #expect(running.current.most["keyring"] == 2, "the keyring group took more than its limit")
        // Another group stuck too: the pool is full, and a further lane waits for a thread.
        for _ in 0..<3 { submit("simctl", stuck: true) }
        #expect(eventually { running.current.now["all"] == 4 })
        submit("other", stuck: false)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!done.current.contains("other"), "a fifth thread started past the bound")
        #expect(pool.threadCount == 4)
        // The stuck calls return one by one: every lane runs, never past either bound.
        for _ in 0..<9 { gate.signal() }
        #expect(eventually { done.current.count == 13 }, "\(done.current)")
        #expect(running.current.most["all"] == 4)
        #expect(running.current.most["keyring"] == 2)
        #expect(running.current.most["simctl"] == 2)
        #expect(pool.threadCount <= 4)
    }

    @Test func theDefaultBoundIsAFewThreadsBeyondTheCores() {
        let pool = WorkPool()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(pool.threadLimit == min(cores, 8) + 4)
        #expect(pool.groupLimit == pool.threadLimit / 2)
    }

    /// A lane leaves at most one stuck job behind: after a second one times out too, its next
    /// jobs wait; a job given up before it started never runs.
    @Test func aLaneLeavesOneStuckJobBehind() {
        let pool = WorkPool(threadLimit: 4, groupLimit: 4)
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
    /// A lane whose next job waits for room in a group that is full of stuck jobs (a hung
    /// keyring) goes on once that job is given up: the job after it, of another group, runs.
    /// It stayed in line for ever before, and every later request of its connection with it.
    @Test func aJobGivenUpWhileItsGroupIsFullLetsTheLaneGoOn() {
        let pool = WorkPool(threadLimit: 4, groupLimit: 1)
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<4 { gate.signal() } }
        let ran = Locked<[String]>([])
        // Another connection's stuck job fills the keyring's group.
        pool.lane().submit(group: "keyring") {
            ran.withLock { $0.append("stuck") }
            gate.wait()
        }
        #expect(eventually { ran.current == ["stuck"] })
        let lane = pool.lane()
        let waiting = lane.submit(group: "keyring") { ran.withLock { $0.append("never") } }
        lane.submit(group: "files") { ran.withLock { $0.append("files") } }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(ran.current == ["stuck"], "a job ran past its full group")
        lane.abandon(waiting)
        #expect(eventually { ran.current == ["stuck", "files"] }, "\(ran.current)")
        // And the lane takes new work after it.
        lane.submit { ran.withLock { $0.append("later") } }
        #expect(eventually { ran.current == ["stuck", "files", "later"] }, "\(ran.current)")
    }

    /// A lane with many jobs waiting says so, and says once when half of them have run: what
    /// lets a connection stop reading a client that pipelines requests without bound.
    @Test func aBackloggedLaneSaysWhenItDrained() {
        let pool = WorkPool(threadLimit: 1, groupLimit: 1)
        let lane = pool.lane()
        let gate = DispatchSemaphore(value: 0)
        let (started, ran, resumed) = (Locked(0), Locked(0), Locked(0))
        for _ in 0..<9 {
            lane.submit {
                started.withLock { $0 += 1 }
                gate.wait()
                ran.withLock { $0 += 1 }
            }
        }
        // One job runs (held by the gate), eight wait.
        #expect(eventually { started.current == 1 })
        #expect(!lane.isBacklogged(limit: 9) { resumed.withLock { $0 += 1 } })
        #expect(lane.isBacklogged(limit: 8) { resumed.withLock { $0 += 1 } })
        for _ in 0..<3 { gate.signal() }
        #expect(eventually { ran.current == 3 })
        #expect(resumed.current == 0, "five still wait, more than half of the limit")
        gate.signal()
        #expect(eventually { resumed.current == 1 })
        for _ in 0..<5 { gate.signal() }
        #expect(eventually { ran.current == 9 })
        #expect(resumed.current == 1, "told once")
    }
}
