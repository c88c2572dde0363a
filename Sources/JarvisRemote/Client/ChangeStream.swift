import Dispatch
import JarvisCore

/// The `changed` notifications of one subscription, as an `AsyncSequence`
/// (from ``AsyncJarvisClient/changes(_:)``).
///
/// Each `next()` reads one notification on the stream's own dispatch queue, so waiting for a
/// change holds no thread of the cooperative pool. Cancelling the waiting task closes the
/// connection and the sequence ends (`nil`); the agent ends the subscription with the
/// connection. When the agent goes away, `next()` throws ``JarvisError`` `.unavailable`.
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
        private let ended = Locked(false)

        init(_ client: JarvisClient, queue: DispatchQueue) {
            self.client = client
            self.queue = queue
        }

        /// Whether ``end()`` was called.
        var isEnded: Bool { ended.withLock { $0 } }

        /// Closes the connection; a read waiting on it wakes up.
        func end() {
            ended.withLock { $0 = true }
            client.close()
        }

        deinit {
            client.close()
        }
    }

    /// Reads the notifications one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let connection: Connection

        /// The next change; nil once the task was cancelled or the stream ended.
        /// - Throws: ``JarvisError`` when the connection failed for another reason.
        public mutating func next() async throws -> ChangeNotification? {
            let connection = self.connection
            guard !connection.isEnded, !Task.isCancelled else {
                connection.end()
                return nil
            }
            do {
                return try await withTaskCancellationHandler {
                    try await AsyncJarvisClient.perform(on: connection.queue) {
                        () throws(JarvisError) -> ChangeNotification? in
                        try connection.client.nextChange(timeout: nil)
                    }
                } onCancel: {
                    connection.end()
                }
            } catch {
                // Ending the stream closes the connection under the waiting read: not an error.
                if connection.isEnded || Task.isCancelled {
                    connection.end()
                    return nil
                }
                throw error
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
