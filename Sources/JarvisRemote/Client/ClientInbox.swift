import Foundation
import JarvisCore

/// What one ``JarvisClient`` connection has received but nobody has taken yet: answers by
/// request id and pushed notifications, plus the connection's failure once it failed.
///
/// Only one thread reads the socket at a time (the *reader*); it files every line it reads
/// here and wakes the others, so a thread waiting for a notification never holds up a call
/// (the waiting caller's answer is filed by whichever thread happened to be reading) and a
/// call never swallows a notification. A thread waiting for something that has not arrived
/// either becomes the reader or sleeps until the reader files a line.
final class ClientInbox: Sendable {
    // Waiting threads sleep on `condition`; what they wait for is `state`, changed only while
    // `condition` is locked too, so no waiter misses the broadcast that follows a change.
    private let condition = NSCondition()
    private let state = Locked(State())

    private struct State: Sendable {
        var contents = Contents(answers: [:], notifications: [])
        var readerActive = false
        var failure: JarvisError?
    }

    /// What a waiting thread found.
    enum Outcome<T> {
        case found(T)
        case timedOut
    }

    /// Waits until `take` finds something in the inbox, reading the socket with `read` while no
    /// other thread does.
    ///
    /// - Parameters:
    ///   - deadline: nil waits for ever.
    ///   - take: looks into the inbox (under its lock) and removes what this caller wants.
    ///   - read: reads one line until a deadline; nil at end of file. Throws `ETIMEDOUT` when
    ///     nothing complete arrived in time.
    /// - Throws: the connection's failure once the connection failed (for every waiter).
    func wait<T>(
        until deadline: ContinuousClock.Instant?,
        take: (inout Contents) -> T?,
        read: (ContinuousClock.Instant?) throws(JarvisError) -> ReadOutcome
    ) throws(JarvisError) -> Outcome<T> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            var contents = state.withLock { state in
                defer { state.contents = Contents(answers: [:], notifications: []) }
                return state.contents
            }
            let taken = take(&contents)
            let (failure, readerActive) = state.withLock { state in
                state.contents = contents
                return (state.failure, state.readerActive)
            }
            if let taken { return .found(taken) }
            if let failure { throw failure }
            if let deadline, ContinuousClock.now >= deadline, readerActive { return .timedOut }
            if readerActive {
                if let deadline {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(deadline - .now)))
                } else {
                    condition.wait()
                }
                continue
            }
            state.withLock { $0.readerActive = true }
            condition.unlock()
            let outcome: Result<ReadOutcome, JarvisError> = Result { () throws(JarvisError) in try read(deadline) }
            condition.lock()
            defer { condition.broadcast() }
            let timedOut = state.withLock { state -> Bool in
                state.readerActive = false
                switch outcome {
                case .success(.timedOut):
                    return true
                case .success(.line(let incoming)):
                    Self.file(incoming, in: &state.contents)
                case .failure(let error):
                    state.failure = error
                }
                return false
            }
            if timedOut { return .timedOut }
        }
    }

    /// Marks the connection failed: every waiter, now and later, throws `error`.
    func fail(_ error: JarvisError) {
        condition.lock()
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
        condition.broadcast()
        condition.unlock()
    }

    private static func file(_ incoming: RPCResponse.Incoming, in contents: inout Contents) {
        switch incoming {
        case .notification(let method, let params):
            contents.notifications.append((method, params))
        case .result(let id, let result):
            contents.answers[id] = .success(result)
        case .error(let id, let error):
            contents.answers[id] = .failure(error.jarvisError)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        max(0, duration.inSeconds)
    }

    /// The inbox's contents, handed to a `take` closure.
    struct Contents: Sendable {
        /// Answers by request id; an error the agent could not tie to a request has id `null`.
        var answers: [JSONValue: Result<JSONValue, JarvisError>]
        /// Notifications in arrival order.
        var notifications: [(method: String, params: JSONObject)]
    }

    /// What one read of the socket gave.
    enum ReadOutcome {
        case line(RPCResponse.Incoming)
        case timedOut
    }
}
