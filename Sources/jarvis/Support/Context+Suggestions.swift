import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// "Did you mean …?" for containers and keys: asked of the agent only after it said no.
extension Context {
    /// Runs a request about one place; when the agent answers that it does not exist, the
    /// message gains the nearest container or key the agent has.
    func suggesting<T>(_ client: JarvisClient, _ place: Wire.Place, _ body: () throws(JarvisError) -> T)
        throws(JarvisError) -> T
    {
        do {
            return try body()
        } catch where error.code == .notFound {
            let hint = suggestion(client, place)
            guard !hint.isEmpty else { throw error }
            throw JarvisError(.notFound, error.message + (error.message.hasSuffix(".") ? "" : ".") + hint)
        }
    }

    /// ` Did you mean 'X'?` for a mistyped container, else for a mistyped key; empty otherwise.
    func suggestion(_ client: JarvisClient, _ place: Wire.Place) -> String {
        let containers = (try? client.containers(scanner: place.scanner)) ?? []
        guard containers.contains(where: { $0.name == place.container }) else {
            return Suggestion.phrase(for: place.container, among: containers.map(\.name))
        }
        return Suggestion.phrase(for: place.key, among: keys(client, place))
    }

    /// The keys of the place's container (stored and declared).
    func keys(_ client: JarvisClient, _ place: Wire.Place) -> [String] {
        let listing = try? client.listing(
            Wire.ListParams(scanner: place.scanner, container: Self.literalPattern(place.container)))
        return listing?.items.filter { $0.address.container == place.container }.map(\.address.key) ?? []
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
