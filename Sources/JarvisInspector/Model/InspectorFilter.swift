import JarvisCore

/// What the search field narrows a level to: a case-insensitive substring, or a glob when the
/// text has `*` or `?` (matched against the whole name, or the whole value preview).
public struct InspectorFilter: Sendable, Hashable {
    /// The text as typed.
    public var text: String {
        didSet { prepare() }
    }
    /// The text lowercased and, for a glob, its pattern: made once, not once per row (a
    /// keystroke of a filter over 30,000 rows matches 60,000 texts).
    private var needle = ""
    private var glob: GlobPattern?

    /// A filter from what the user typed; empty matches everything.
    public init(_ text: String = "") {
        self.text = text
        prepare()
    }

    private mutating func prepare() {
        needle = text.lowercased()
        glob = isGlob ? GlobPattern(needle) : nil
    }

    /// Whether the filter is empty.
    public var isEmpty: Bool { text.isEmpty }

    /// Whether the filter uses glob syntax.
    public var isGlob: Bool { text.contains("*") || text.contains("?") }

    /// Whether every text this filter matches is matched by `broader` too (it adds
    /// characters to a substring), so narrowing what `broader` showed gives the same rows.
    public func narrows(_ broader: InspectorFilter) -> Bool {
        !isGlob && !broader.isGlob && needle.contains(broader.needle)
    }

    /// Whether a row's title or preview matches.
    public func matches(_ row: InspectorRow) -> Bool {
        guard !text.isEmpty else { return true }
        return matches(row.title) || matches(row.preview)
    }

    /// A row's texts lowercased once, for a face that keeps its rows and filters them again
    /// on every keystroke (``matches(folded:)``).
    public struct Folded: Sendable, Hashable {
        /// The title, lowercased.
        public var title: String
        /// The preview, lowercased.
        public var preview: String

        /// The folded texts of `row`.
        public init(_ row: InspectorRow) {
            title = row.title.lowercased()
            preview = row.preview.lowercased()
        }
    }

    /// Whether a row matches, from its ``Folded`` texts: the same answer as ``matches(_:)-(InspectorRow)``.
    public func matches(folded: Folded) -> Bool {
        guard !text.isEmpty else { return true }
        if let glob { return glob.matches(folded.title) || glob.matches(folded.preview) }
        return Self.contains(folded.title, needle) || Self.contains(folded.preview, needle)
    }

    /// Whether `needle` occurs in `text`, compared as UTF-8 bytes (as a literal search does):
    /// Foundation's `contains` costs more than the rest of a keystroke over 30,000 rows.
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { wanted in
                guard let first = wanted.first else { return true }
                guard wanted.count <= haystack.count else { return false }
                var start = 0
                while start <= haystack.count - wanted.count {
                    if haystack[start] == first {
                        var matched = 1
                        while matched < wanted.count, haystack[start + matched] == wanted[matched] { matched += 1 }
                        if matched == wanted.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// Whether one text matches.
    public func matches(_ candidate: String) -> Bool {
        guard !text.isEmpty else { return true }
        if let glob { return glob.matches(candidate.lowercased()) }
        return Self.contains(candidate.lowercased(), needle)
    }
}
