/// When a face redraws after changes: a burst of changes becomes at most one refresh per
/// ``interval``, and a refresh is never later than ``interval`` after the change that asked
/// for it.
///
/// Pure: the face asks ``changed(now:)`` at each change and waits until the instant it gets
/// (nil: a refresh is already due), then calls ``refreshed(now:)``.
public struct RefreshThrottle: Sendable, Hashable {
    /// The shortest time between two refreshes.
    public let interval: Duration
    /// When the last refresh ran.
    public private(set) var lastRefresh: ContinuousClock.Instant?
    /// When the refresh already asked for will run; nil when none is due.
    public private(set) var due: ContinuousClock.Instant?

    /// A throttle that refreshes at most once per `interval` (100 ms: ten redraws a second).
    public init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// A change arrived at `now`.
    /// - Returns: when to refresh, or nil when a refresh is already due (it will show this
    ///   change too).
    public mutating func changed(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard due == nil else { return nil }
        let at = lastRefresh.map { max(now, $0 + interval) } ?? now
        due = at
        return at
    }

    /// The refresh ran at `now`; changes after this ask for a new one.
    public mutating func refreshed(now: ContinuousClock.Instant) {
        lastRefresh = now
        due = nil
    }
}
