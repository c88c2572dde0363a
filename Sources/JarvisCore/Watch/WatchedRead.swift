/// What one read of a watched container found (``JarvisHub/watchedRead(_:container:listing:)``).
package enum WatchedRead: Sendable, Hashable {
    /// Nothing to compare or report: the scanner is not watched, or the configuration hides
    /// the container.
    case hidden
    /// The container does not exist (any more).
    case missing
    /// The container exists but cannot be read now, with the one line `list` would show.
    case unreadable(String)
    /// The container's visible entries.
    case read(ContainerSnapshot)
}
