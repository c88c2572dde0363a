import JarvisCore

/// Bytes queued for the peers of one or more servers, counted together so that the output
/// held in memory has one bound whatever the number of connections.
///
/// A connection that keeps up with its answers holds at most about one chunk (streamed
/// answers are made only when the socket takes them), so only peers that stop reading get
/// near the limit, and they are the ones dropped (see ``reserve(_:holding:)``).
package final class OutputBudget: Sendable {
    /// The most bytes queued for all connections together.
    let limit: Int
    /// A connection holding less than this is never refused: one answer in flight is normal.
    let allowance: Int
    private let total = Locked(0)

    /// - Parameters:
    ///   - limit: the most bytes queued for all connections together.
    ///   - allowance: what a connection may hold even when the budget is spent; by default
    ///     about two chunks of a streamed answer.
    package init(limit: Int, allowance: Int = 2 * LineConnectionWorker.chunkSize) {
        self.limit = limit
        self.allowance = allowance
    }

    /// Takes `count` bytes for a connection that already holds `holding`; false when the
    /// budget is spent and that connection holds more than its allowance, or when one line
    /// larger than the allowance does not fit in what is left: the allowance lets a connection
    /// queue an ordinary answer, never one that alone passes the budget.
    func reserve(_ count: Int, holding: Int) -> Bool {
        total.withLock { total in
            let fits = count <= limit && total <= limit - count
            guard fits || (holding < allowance && count <= allowance) else { return false }
            total += count
            return true
        }
    }

    /// Gives back bytes that were written or dropped.
    func release(_ count: Int) {
        guard count > 0 else { return }
        total.withLock { $0 -= count }
    }

    /// Bytes queued now, for tests and diagnostics.
    var queued: Int { total.current }
}
