/// Where a listing is reading storage now: the scanner, and the container being opened
/// (empty while the scanner is asked for its containers).
///
/// Shared by every copy of a ``ListStream``, so the thread that gives up on a listing step
/// that does not return can name the storage it waits on without touching it. Thread-safe.
package final class ListProgress: Sendable {
    private let place = Locked<(scanner: String, container: String)?>(nil)

    package init() {}

    /// The storage the listing reads now, or last read; nil before it read any.
    package var reading: (scanner: String, container: String)? { place.current }

    func begin(scanner: String, container: String) {
        place.withLock { $0 = (scanner, container) }
    }
}
