/// Where the top-level dictionary's keys and values sit in an XML property list's bytes, so
/// one key can be changed by replacing its span and the rest of the file stays byte for byte.
struct XMLPropertyListLayout: Sendable, Hashable {
    /// One key's span: `<key>` to the end of its value.
    struct Entry: Sendable, Hashable {
        /// The offset of `<key>`.
        var keyStart: Int
        /// The offset of the value's opening tag.
        var valueStart: Int
        /// The offset just past the value's closing tag.
        var valueEnd: Int
    }

    /// The offset of the dictionary's `<dict>`.
    var dictionaryStart: Int
    /// The entries, in the file's order.
    var entries: [Entry] = []
    /// The offset of `</dict>`; nil for `<dict/>`.
    var closeTag: Int?
}
