import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// The names around one place, asked of the agent only after it said the place does not
/// exist: for "Did you mean …?" and for telling a new key from a typo before `set` creates
/// it. `jarvis` and `jarvis mcp` share it, so both suggest the same names.
struct PlaceNames {
    /// Whom to ask.
    let client: JarvisClient
    /// The place the agent did not find.
    let place: Wire.Place

    /// Runs a request about one place; when the agent answers that it does not exist, the
    /// message gains the nearest container, key or member the agent has.
    static func suggesting<T>(_ client: JarvisClient, _ place: Wire.Place, _ body: () throws(JarvisError) -> T)
        throws(JarvisError) -> T
    {
        do {
            return try body()
        } catch where error.code == .notFound {
            let hint = PlaceNames(client: client, place: place).suggestion()
            guard !hint.isEmpty else { throw error }
            throw JarvisError(.notFound, error.message + (error.message.hasSuffix(".") ? "" : ".") + hint)
        }
    }

    /// ` Did you mean 'X'?` for a mistyped container, else for a mistyped key, else for a
    /// mistyped member inside the key's value (from its siblings); empty otherwise.
    func suggestion() -> String {
        let containers = (try? client.containers(scanner: place.scanner)) ?? []
        guard containers.contains(where: { $0.name == place.container }) else {
            return Suggestion.phrase(for: place.container, among: containers.map(\.name))
        }
        let keys = container().keys
        guard let pointer = place.pointer, keys.contains(place.key) else {
            return Suggestion.phrase(for: place.key, among: keys)
        }
        guard let missing = missingMember(of: pointer) else { return "" }
        return Suggestion.phrase(for: missing.token, among: missing.siblings)
    }

    /// The keys of the place's container (stored and declared), and whether the host's key
    /// catalog declares keys there.
    func container() -> (keys: [String], isCatalogued: Bool) {
        let listing = try? client.listing(
            Wire.ListParams(scanner: place.scanner, container: Self.literalPattern(place.container)))
        let items = listing?.items.filter { $0.address.container == place.container } ?? []
        return (items.map(\.address.key), items.contains { $0.catalog != nil })
    }

    /// The first token of `pointer` that the key's value does not have, with the names of
    /// the dictionary where it is missing; nil when the key cannot be read (masked, absent)
    /// or the pointer stops at an array or a scalar.
    func missingMember(of pointer: JSONPointer) -> (token: String, siblings: [String], isLast: Bool)? {
        var whole = place
        whole.pointer = nil
        guard var current = (try? client.get(whole))?.value else { return nil }
        for (index, token) in pointer.tokens.enumerated() {
            switch current {
            case .dictionary(let members):
                guard let next = members[token] else {
                    return (token, members.keys.sorted(), index == pointer.tokens.count - 1)
                }
                current = next
            case .array(let elements):
                guard let position = Int(token), elements.indices.contains(position) else { return nil }
                current = elements[position]
            default:
                return nil
            }
        }
        return nil
    }

    /// A glob that matches exactly `text` (its `*`, `?`, `[` and `\\` taken literally).
    static func literalPattern(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if "*?[\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern
    }
}
