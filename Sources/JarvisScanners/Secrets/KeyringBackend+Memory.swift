import JarvisCore

/// What a keyring backend remembers between calls, behind its lock: never a secret.
extension KeyringBackend {
    /// The items only their label or schema places (from the last listing), and the items
    /// the last keyed reads found, for the write that follows each.
    struct Memory: Sendable {
        /// Items at a place their attributes do not name, by container and key, in order.
        private var strays: [String: [SecretItem]] = [:]
        private var strayContainers: Set<String> = []
        /// When the strays were last listed; nil before the first listing.
        private var listedAt: ContinuousClock.Instant?
        /// What the last keyed reads found, by container and key: the hub writes right after
        /// its read, under the container's lock.
        private var found = RecentlyFound<Located>()

        private static func place(_ container: String, _ key: String) -> String {
            container + "\u{0}" + key
        }

        /// Whether the strays come from a listing recent enough to trust a miss: a keyed `find`
        /// that misses lists the keyring when they do not, so other programs' items placed by
        /// their label or schema are found on a fresh agent too, while the writes of a working
        /// session (whose client listed or read a moment ago) never list.
        var straysAreFresh: Bool {
            listedAt.map { ContinuousClock.now - $0 < Self.straysLifetime } ?? false
        }

        /// How long a listing's strays are trusted when a keyed `find` misses.
        static let straysLifetime = Duration.seconds(30)

        func hasStray(in container: String) -> Bool {
            strayContainers.contains(container)
        }

        func strays(container: String, key: String) -> [SecretItem] {
            strays[Self.place(container, key)] ?? []
        }

        /// Keeps the items of a listing that a `find` of their place would miss.
        mutating func replaceStrays(with placed: [Placed]) {
            strays = [:]
            strayContainers = []
            listedAt = .now
            for entry in placed where !entry.isExact {
                var item = entry.item
                item.secret = nil
                strays[Self.place(entry.container, entry.name), default: []].append(item)
                strayContainers.insert(entry.container)
            }
        }

        /// Remembers what a keyed read found, without its secrets.
        mutating func remember(_ located: Located, container: String, key: String) {
            var kept = located
            kept.item?.secret = nil
            kept.next?.secret = nil
            found.remember(kept, for: Self.place(container, key))
        }

        /// What the last keyed read of this key found, once, if it is recent.
        mutating func take(container: String, key: String) -> Located? {
            found.take(Self.place(container, key))
        }

        /// Forgets the keyed reads of a container read whole (a bulk delete reads it so).
        mutating func forget(container: String) {
            found.forget { $0.hasPrefix(container + "\u{0}") }
        }
    }
}
