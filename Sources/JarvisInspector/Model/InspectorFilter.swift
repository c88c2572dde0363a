import JarvisCore

/// What the search field narrows a level to: a case-insensitive substring, or a glob when the
/// text has `*` or `?` (matched against the whole name, or the whole value preview).
public struct InspectorFilter: Sendable, Hashable {
    /// The text as typed.
    public var text: String

    /// A filter from what the user typed; empty matches everything.
    public init(_ text: String = "") { self.text = text }

    /// Whether the filter is empty.
    public var isEmpty: Bool { text.isEmpty }

    /// Whether the filter uses glob syntax.
    public var isGlob: Bool { text.contains("*") || text.contains("?") }

    /// Whether a row's title or preview matches.
    public func matches(_ row: InspectorRow) -> Bool {
        guard !text.isEmpty else { return true }
        return matches(row.title) || matches(row.preview)
    }

    /// Whether one text matches.
    public func matches(_ candidate: String) -> Bool {
        guard !text.isEmpty else { return true }
        let needle = text.lowercased()
        if isGlob { return GlobPattern(needle).matches(candidate.lowercased()) }
        return candidate.lowercased().contains(needle)
    }
}
