import Dispatch
import Foundation
import JarvisCore

/// The `changed` notifications of one subscription, as an `AsyncSequence`
/// (from ``AsyncJarvisClient/changes(_:)``).
///
/// Waiting for a change holds no thread at all: `next()` suspends, and a dispatch read
/// source on the connection's socket resumes it when bytes arrive (the system's readiness
/// queue, shared by every source). Cancelling the waiting task closes the connection and the
/// sequence ends (`nil`); the agent ends the subscription with the connection. When the agent
/// goes away or the socket fails, `next()` throws ``JarvisError`` `.unavailable`.
public struct ChangeStream: AsyncSequence, Sendable {
    /// One `changed` notification.
    public typealias Element = ChangeNotification

    /// What the agent answered to `watch`: the subscription's id and starting sequence.
    public let subscription: Wire.WatchResult
    let connection: Connection

    /// The connection a stream reads from; closed when the last copy of the stream is gone.
    final class Connection: Sendable {
        let client: JarvisClient
        let queue: DispatchQueue
        private let state = Locked(State())

        /// The one `next()` that may be waiting, and the readiness source that will wake it.
        private struct State: Sendable {
            var ended = false
            var waiting: CheckedContinuation<Result<ChangeNotification?, JarvisError>, Never>?
            var source: DispatchSourceHandle?
        }

        init(_ client: JarvisClient, queue: DispatchQueue) {
            self.client = client
            self.queue = queue
        }

        /// Whether ``end()`` was called.
        var isEnded: Bool { state.withLock { $0.ended } }

        /// Closes the connection; a `next()` waiting on it ends with nil.
        func end() {
            let (waiting, source) = state.withLock { state in
                defer { (state.ended, state.waiting, state.source) = (true, nil, nil) }
                return (state.waiting, state.source)
            }
            source?.source.cancel()
            client.close()
            waiting?.resume(returning: .success(nil))
        }

        /// The next change: what has already arrived, else the first that arrives.
        func next() async throws(JarvisError) -> ChangeNotification? {
            let result = await withCheckedContinuation { continuation in
                queue.async { self.start(continuation) }
            }
            return try result.get()
        }

        /// On `queue`: answers from what has arrived, or leaves `continuation` waiting for the
        /// socket to become readable.
        private func start(_ continuation: CheckedContinuation<Result<ChangeNotification?, JarvisError>, Never>) {
            if let ready = poll() {
                continuation.resume(returning: ready)
                return
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: client.descriptor, queue: queue)
            let parked = state.withLock { state -> Bool in
                guard !state.ended else { return false }
                (state.waiting, state.source) = (continuation, DispatchSourceHandle(source))
                return true
            }
            guard parked else {
                continuation.resume(returning: .success(nil))
                return
            }
            source.setEventHandler { [weak self] in self?.readable() }
            source.resume()
        }

        /// On `queue`, when the socket is readable: resumes the waiting `next()` once a whole
        /// change (or the end) is in.
        private func readable() {
            guard let ready = poll() else { return }
            let (waiting, source) = state.withLock { state in
                defer { (state.waiting, state.source) = (nil, nil) }
                return (state.waiting, state.source)
            }
            source?.source.cancel()
            waiting?.resume(returning: ready)
        }

        /// A change that has arrived, the end, or nil when the next change is not in yet.
        private func poll() -> Result<ChangeNotification?, JarvisError>? {
            if isEnded { return .success(nil) }
            do throws(JarvisError) {
                guard let change = try client.nextChange(timeout: .zero) else { return nil }
                return .success(change)
            } catch {
                // Ending the stream closes the connection under the waiting read: not an error.
                return isEnded ? .success(nil) : .failure(error)
            }
        }

        deinit {
            let source = state.withLock { $0.source }
            source?.source.cancel()
            client.close()
        }
    }

    /// Reads the notifications one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let connection: Connection

        /// The next change; nil once the task was cancelled or the stream ended.
        /// - Throws: ``JarvisError`` `.unavailable` when the agent went away or the socket failed.
        public mutating func next() async throws -> ChangeNotification? {
            let connection = self.connection
            guard !connection.isEnded, !Task.isCancelled else {
                connection.end()
                return nil
            }
            return try await withTaskCancellationHandler {
                try await connection.next()
            } onCancel: {
                connection.end()
            }
        }
    }

    /// An iterator reading this stream's notifications.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: connection)
    }

    /// Ends the subscription now: the connection closes and iteration ends.
    public func cancel() {
        connection.end()
    }
}
