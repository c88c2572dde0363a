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
    /// The needle and pattern as a row shows the text (``VisibleText``): a bidi override or a
    /// zero-width space pasted into the field finds the row whose real text holds it, since a
    /// row's title and preview show it as its escape. Nil when the text holds none.
    private var shownNeedle: String?
    private var shownGlob: GlobPattern?

    /// A filter from what the user typed; empty matches everything.
    public init(_ text: String = "") {
        self.text = text
        prepare()
    }

    private mutating func prepare() {
        needle = text.lowercased()
        glob = isGlob ? GlobPattern(needle) : nil
        let shown = VisibleText.escaped(text).lowercased()
        shownNeedle = shown == needle ? nil : shown
        shownGlob = isGlob ? shownNeedle.map { GlobPattern($0) } : nil
    }

    /// Whether the filter is empty.
    public var isEmpty: Bool { text.isEmpty }

    /// Whether the filter uses glob syntax.
    public var isGlob: Bool { text.contains("*") || text.contains("?") }

    /// Whether every text this filter matches is matched by `broader` too (it adds
    /// characters to a substring), so narrowing what `broader` showed gives the same rows.
    public func narrows(_ broader: InspectorFilter) -> Bool {
        // Escaping keeps containment, so the shown needles narrow as the typed ones do.
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
        public let title: String
        /// The preview, lowercased.
        public let preview: String
        /// Both in composed form, as a pattern matches them: composed once here, not on
        /// every keystroke (a preview cut with `…` is not plain ASCII, and composing it
        /// cost most of a pattern's keystroke). The same strings when already composed.
        let composedTitle: String
        let composedPreview: String

        /// The folded texts of `row`.
        public init(_ row: InspectorRow) {
            self.init(title: row.title, preview: row.preview)
        }

        /// The folded texts of a line a face adds to the model's rows (`All keys`): a filter
        /// matches it as it would match a row with this title and preview.
        public init(title: String, preview: String) {
            self.title = title.lowercased()
            self.preview = preview.lowercased()
            composedTitle = self.title.composedName
            composedPreview = self.preview.composedName
        }
    }

    /// Whether a row matches, from its ``Folded`` texts: the same answer as ``matches(_:)-(InspectorRow)``.
    public func matches(folded: Folded) -> Bool {
        guard !text.isEmpty else { return true }
        if let glob {
            if glob.matches(composed: folded.composedTitle) || glob.matches(composed: folded.composedPreview) {
                return true
            }
            guard let shownGlob else { return false }
            return shownGlob.matches(composed: folded.composedTitle) || shownGlob.matches(composed: folded.composedPreview)
        }
        if Self.contains(folded.title, needle) || Self.contains(folded.preview, needle) { return true }
        guard let shownNeedle else { return false }
        return Self.contains(folded.title, shownNeedle) || Self.contains(folded.preview, shownNeedle)
    }

    /// Whether `needle` occurs in `text`, compared as UTF-8 bytes (as a literal search does):
    /// Foundation's `contains` costs more than the rest of a keystroke over 30,000 rows.
    static func contains(_ text: String, _ needle: String) -> Bool {
        // Read in place (no copy of either string, no retain per row); a bridged string
        // without contiguous UTF-8 is copied once.
        let found = text.utf8.withContiguousStorageIfAvailable { haystack in
            needle.utf8.withContiguousStorageIfAvailable { wanted in search(haystack, wanted) }
        }
        if let found, let found { return found }
        return Array(text.utf8).withUnsafeBufferPointer { haystack in
            Array(needle.utf8).withUnsafeBufferPointer { search(haystack, $0) }
        }
    }

    private static func search(_ haystack: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// Whether one text matches.
    public func matches(_ candidate: String) -> Bool {
        guard !text.isEmpty else { return true }
        let folded = candidate.lowercased()
        if let glob { return glob.matches(folded) || shownGlob?.matches(folded) == true }
        return Self.contains(folded, needle) || shownNeedle.map { Self.contains(folded, $0) } == true
    }
}
