import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// What a `set` finds at its place before it writes: the type to keep, and whether it
/// creates a key — refusing a new name that is most likely a typo before anything is
/// written. `jarvis set` and MCP `set_preference` share it.
struct SetTarget {
    /// The type there now: the stored value's, else the key catalog's; nil for a new place
    /// (read with ``ValueReading``, which then chooses from the text).
    var current: PreferenceType?
    /// Whether the write creates a key that is not stored and not declared.
    var createsKey: Bool
    /// The revision read, to send as the write's expected revision when the type kept came
    /// from this reading: a value whose type changes between the read and the write then
    /// answers `conflict` instead of being stored with the old type. ``Revision/absent``
    /// for a key not there; nil for a member the value does not have yet (or an append).
    var revision: Revision?
    /// What the place holds now, as read; nil when it holds nothing (or for an append).
    var item: PreferenceItem?

    /// Reads the place.
    /// - Parameters:
    ///   - allowNew: `--new` (MCP `create: true`): create a new name even when it looks like a typo.
    ///   - newHint: how the face says so, e.g. `Add --new to create it anyway.`
    /// - Throws: ``JarvisError`` `.invalidParams` for a new key in a container whose keys the
    ///   host's key catalog declares, or one or two edits from an existing name (a key, or a
    ///   member beside the new one), naming the nearest; what reading the place throws
    ///   besides `.notFound`.
    init(_ place: Wire.Place, client: JarvisClient, allowNew: Bool, newHint: String) throws(JarvisError) {
        current = nil
        createsKey = false
        revision = nil
        // Appending to an array names no existing place.
        if place.pointer?.tokens.last == "-" { return }
        do {
            let item = try client.get(place)
            // A stand-in (a JSON null, a number out of range) has no type of its own to keep.
            if !item.isPlaceholder { current = item.type }
            revision = item.revision
            self.item = item
            return
        } catch where error.code == .notFound {
            let names = PlaceNames(client: client, place: place)
            guard let pointer = place.pointer else {
                createsKey = true
                revision = .absent
                guard !allowNew else { return }
                let (keys, isCatalogued) = names.container()
                let key = place.key
                let container = place.container
                if isCatalogued {
                    throw JarvisError(
                        .invalidParams,
                        "'\(key)' is not a key of \(container), whose keys the host's key catalog declares.\(Self.phrase(Suggestion.nearest(to: place.key, among: keys))) \(newHint)"
                    )
                }
                if let near = Suggestion.typo(of: place.key, among: keys) {
                    throw JarvisError(
                        .invalidParams,
                        "'\(key)' is not a key of \(container) and looks like a typo.\(Self.phrase(near)) \(newHint)")
                }
                return
            }
            // A new member inside the value: compared with its siblings. A missing parent is
            // refused by the write itself.
            guard !allowNew, let missing = names.missingMember(of: pointer), missing.isLast,
                let near = Suggestion.typo(of: missing.token, among: missing.siblings)
            else { return }
            throw JarvisError(
                .invalidParams,
                "'\(missing.token)' is not in \(JSONPointer(tokens: [place.key] + pointer.tokens.dropLast()).description) and looks like a typo.\(Self.phrase(near)) \(newHint)"
            )
        }
    }

    /// Stores `reading` through `write`; a type chosen for a new place that the container
    /// refuses (a secret holds only text) is stored as the text instead.
    /// - Returns: what `write` answered, and the note about the type to show, if any.
    static func store<T>(_ reading: ValueReading, _ write: (PreferenceValue) throws(JarvisError) -> T)
        throws(JarvisError) -> (result: T, note: String?)
    {
        do {
            return (try write(reading.value), reading.note)
        } catch where error.code == .typeMismatch {
            guard let text = reading.asText else { throw error }
            return (try write(text.value), text.note)
        }
    }

    private static func phrase(_ name: String?) -> String {
        name.map { " Did you mean '\($0)'?" } ?? ""
    }
}
