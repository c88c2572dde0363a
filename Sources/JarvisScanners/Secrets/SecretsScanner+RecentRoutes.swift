import JarvisCore

extension SecretsScanner {
    /// The routes found by asking backends, for a moment: the steps of one request (the
    /// hub's container, read and store) route the same name one after another.
    struct RecentRoutes: Sendable {
        private var entries: [(name: String, route: Route, at: ContinuousClock.Instant)] = []

        /// Enough for every write under way; the oldest goes first.
        static let capacity = 32
        /// How long a route is used again: one request's steps, never what a container
        /// becomes later.
        static let lifetime = Duration.seconds(2)

        func route(_ name: String) -> Route? {
            guard let entry = entries.last(where: { $0.name == name }),
                ContinuousClock.now - entry.at < Self.lifetime
            else { return nil }
            return entry.route
        }

        mutating func remember(_ route: Route, for name: String) {
            entries.removeAll { $0.name == name }
            entries.append((name, route, .now))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }

        mutating func forget(_ name: String) {
            entries.removeAll { $0.name == name }
        }
    }
}
