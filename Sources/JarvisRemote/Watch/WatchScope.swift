import JarvisCore

/// Which containers of one scanner the change engine reads: those some subscription's
/// container filter matches, so watching a small suite never reads (or keeps a copy of) a
/// huge one beside it.
enum WatchScope: Sendable {
    /// Every container: some subscription has no container filter.
    case all
    /// Containers matching one of these patterns.
    case patterns([GlobPattern])

    /// The scope of one subscription.
    init(_ filter: ChangeEngine.Filter) {
        self = filter.container.map { .patterns([$0]) } ?? .all
    }

    /// Nothing yet.
    static let none = WatchScope.patterns([])

    /// Whether the container is in scope.
    func contains(_ name: String) -> Bool {
        switch self {
        case .all: true
        case .patterns(let patterns): patterns.contains { $0.matches(name) }
        }
    }

    /// The containers of both scopes.
    func union(_ other: WatchScope) -> WatchScope {
        switch (self, other) {
        case (.patterns(let mine), .patterns(let theirs)):
            var seen = Set(mine.map(\.description))
            return .patterns(mine + theirs.filter { seen.insert($0.description).inserted })
        default: return .all
        }
    }

    /// The names, when every pattern names one container: they are read directly, without
    /// listing the scanner's containers (which may read every suite).
    var exactNames: Set<String>? {
        guard case .patterns(let patterns) = self,
            patterns.allSatisfy({ $0.isExact && !$0.description.contains("\\") })
        else { return nil }
        return Set(patterns.map(\.description))
    }
}
