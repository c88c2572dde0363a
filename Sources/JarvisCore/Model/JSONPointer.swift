/// A path into a nested value, as RFC 6901 spells it: `/profile/tags/0`.
///
/// Jarvis edits nested values by reading a key's whole value, changing one place inside it
/// and writing the whole value back, so every sibling keeps its type (a date stays a date,
/// data stays data). A pointer names that place. Tokens are separated by `/`; inside a token
/// `~1` stands for `/` and `~0` for `~`. The empty pointer `""` is the whole value.
///
/// Setting follows the shape of the value around it: an existing dictionary key or array
/// index is replaced in place; a new dictionary key is added; an array index equal to the
/// count, or `-`, appends. Removing an array element shifts the ones after it.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    public var tokens: [String]

    /// A pointer made of already unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses pointer text.
    /// - Throws: ``JarvisError`` `.invalidParams` when the text does not start with `/` (and is
    ///   not empty) or uses `~` other than `~0` and `~1`.
    public init(parsing text: String) throws(JarvisError) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else {
            throw JarvisError(.invalidParams, "JSON Pointer '\(text)' must start with '/', e.g. /server/port")
        }
        var parsed: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            parsed.append(try Self.unescape(raw, in: text))
        }
        tokens = parsed
    }

    /// The pointer text, escaped: `/a~1b/0`.
    public var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }

    /// Whether this is the empty pointer, which names the whole value.
    public var isWhole: Bool { tokens.isEmpty }

    /// The pointer without its first token: what is left after the first token named a key.
    public var droppingFirst: JSONPointer { JSONPointer(tokens: Array(tokens.dropFirst())) }

    // MARK: - Reading and editing

    /// The value this pointer names inside `root`.
    /// - Throws: ``JarvisError`` `.notFound` for a missing key or index, `.typeMismatch` when
    ///   the path runs through a value that is not an array or a dictionary.
    public func value(in root: PreferenceValue) throws(JarvisError) -> PreferenceValue {
        var current = root
        for (depth, token) in tokens.enumerated() {
            switch current {
            case .dictionary(let values):
                guard let next = values[token] else {
                    throw JarvisError(
                        .notFound, "no key '\(token)' at \(prefix(depth)) (its keys: \(Self.list(values.keys)))")
                }
                current = next
            case .array(let values):
                let index = try Self.index(token, count: values.count, at: prefix(depth), appending: false)
                current = values[index]
            default:
                throw notAContainer(current, depth: depth)
            }
        }
        return current
    }

    /// `root` with `newValue` stored where this pointer points; every other part unchanged.
    /// - Throws: ``JarvisError`` `.notFound` when a parent on the way is missing or an array
    ///   index is past the end, `.typeMismatch` when a parent is not a container.
    public func setting(_ newValue: PreferenceValue, in root: PreferenceValue) throws(JarvisError) -> PreferenceValue {
        try edit(root, depth: 0) { (parent: inout PreferenceValue, token: String, place: String) throws(JarvisError) in
            switch parent {
            case .dictionary(var values):
                values[token] = newValue
                parent = .dictionary(values)
            case .array(var values):
                let index = try Self.index(token, count: values.count, at: place, appending: true)
                if index == values.count { values.append(newValue) } else { values[index] = newValue }
                parent = .array(values)
            default:
                throw notAContainer(parent, depth: tokens.count - 1)
            }
        } whole: { _ throws(JarvisError) in
            newValue
        }
    }

    /// `root` without the value this pointer points at; every other part unchanged.
    /// - Throws: ``JarvisError`` `.notFound` when the target is missing, `.invalidParams` for
    ///   the empty pointer (delete the key instead), `.typeMismatch` as for ``value(in:)``.
    public func removing(in root: PreferenceValue) throws(JarvisError) -> PreferenceValue {
        try edit(root, depth: 0) { (parent: inout PreferenceValue, token: String, place: String) throws(JarvisError) in
            switch parent {
            case .dictionary(var values):
                guard values.removeValue(forKey: token) != nil else {
                    throw JarvisError(.notFound, "no key '\(token)' at \(place) (its keys: \(Self.list(values.keys)))")
                }
                parent = .dictionary(values)
            case .array(var values):
                let index = try Self.index(token, count: values.count, at: place, appending: false)
                values.remove(at: index)
                parent = .array(values)
            default:
                throw notAContainer(parent, depth: tokens.count - 1)
            }
        } whole: { _ throws(JarvisError) in
            throw JarvisError(.invalidParams, "the empty pointer names the whole value; delete the key instead")
        }
    }

    /// This pointer with a final `-` replaced by the index an append to `root` would get.
    /// - Throws: ``JarvisError`` as ``value(in:)`` when the parent cannot be reached.
    public func resolvingAppend(in root: PreferenceValue) throws(JarvisError) -> JSONPointer {
        guard tokens.last == "-" else { return self }
        let parentPointer = JSONPointer(tokens: Array(tokens.dropLast()))
        guard case .array(let elements) = try parentPointer.value(in: root) else { return self }
        return JSONPointer(tokens: parentPointer.tokens + [String(elements.count)])
    }

    // MARK: - Inside a key

    /// ``value(in:)`` with errors that name places from the key, as a user wrote them
    /// (`no key 'portt' at /server`, not "at the top").
    package func value(in root: PreferenceValue, key: String) throws(JarvisError) -> PreferenceValue {
        try JSONPointer(tokens: [key] + tokens).value(in: .dictionary([key: root]))
    }

    /// ``setting(_:in:)`` with errors that name places from the key.
    package func setting(_ newValue: PreferenceValue, in root: PreferenceValue, key: String) throws(JarvisError)
        -> PreferenceValue
    {
        try Self.unwrap(JSONPointer(tokens: [key] + tokens).setting(newValue, in: .dictionary([key: root])), key)
    }

    /// ``removing(in:)`` with errors that name places from the key.
    package func removing(in root: PreferenceValue, key: String) throws(JarvisError) -> PreferenceValue {
        guard !tokens.isEmpty else { return try removing(in: root) }
        return try Self.unwrap(JSONPointer(tokens: [key] + tokens).removing(in: .dictionary([key: root])), key)
    }

    /// ``resolvingAppend(in:)`` with errors that name places from the key.
    package func resolvingAppend(in root: PreferenceValue, key: String) throws(JarvisError) -> JSONPointer {
        JSONPointer(tokens: Array(try JSONPointer(tokens: [key] + tokens).resolvingAppend(in: .dictionary([key: root])).tokens.dropFirst()))
    }

    private static func unwrap(_ wrapped: PreferenceValue, _ key: String) throws(JarvisError) -> PreferenceValue {
        guard case .dictionary(let values) = wrapped, let value = values[key] else {
            throw JarvisError(.storage, "the edit inside '\(key)' lost the key's value")
        }
        return value
    }

    // MARK: - Internals

    /// Walks to the parent of the last token, lets `change` edit it, and rebuilds the path.
    private func edit(
        _ value: PreferenceValue,
        depth: Int,
        change: (inout PreferenceValue, String, String) throws(JarvisError) -> Void,
        whole: (PreferenceValue) throws(JarvisError) -> PreferenceValue
    ) throws(JarvisError) -> PreferenceValue {
        guard !tokens.isEmpty else { return try whole(value) }
        if depth == tokens.count - 1 {
            var parent = value
            try change(&parent, tokens[depth], prefix(depth))
            return parent
        }
        let token = tokens[depth]
        switch value {
        case .dictionary(var values):
            guard let child = values[token] else {
                throw JarvisError(
                    .notFound, "no key '\(token)' at \(prefix(depth)) (its keys: \(Self.list(values.keys)))")
            }
            values[token] = try edit(child, depth: depth + 1, change: change, whole: whole)
            return .dictionary(values)
        case .array(var values):
            let index = try Self.index(token, count: values.count, at: prefix(depth), appending: false)
            values[index] = try edit(values[index], depth: depth + 1, change: change, whole: whole)
            return .array(values)
        default:
            throw notAContainer(value, depth: depth)
        }
    }

    /// The pointer text of the first `depth` tokens, for messages (`/` for the top).
    private func prefix(_ depth: Int) -> String {
        let text = JSONPointer(tokens: Array(tokens.prefix(depth))).description
        return text.isEmpty ? "the top" : text
    }

    private func notAContainer(_ value: PreferenceValue, depth: Int) -> JarvisError {
        JarvisError(
            .typeMismatch,
            "\(prefix(depth)) is a \(value.type), not an array or a dictionary, so '\(tokens[depth])' cannot be looked up inside it"
        )
    }

    private static func index(_ token: String, count: Int, at place: String, appending: Bool) throws(JarvisError) -> Int
    {
        if token == "-" {
            guard appending else {
                throw JarvisError(
                    .notFound, "'-' at \(place) names the element after the last; it can only be set (to append)")
            }
            return count
        }
        // RFC 6901: digits only, no sign, no leading zero.
        guard let index = Int(token), index >= 0, token.allSatisfy(\.isASCII), token == String(index) else {
            throw JarvisError(
                .typeMismatch, "'\(token)' is not an array index at \(place) (use 0, 1, … or '-' to append)")
        }
        let limit = appending ? count : count - 1
        guard index <= limit else {
            throw JarvisError(
                .notFound,
                count == 0
                    ? "index \(index) at \(place) is past the end: the array is empty"
                    : "index \(index) at \(place) is past the end: the array has \(count) element\(count == 1 ? "" : "s")"
            )
        }
        return index
    }

    private static func unescape(_ raw: Substring, in text: String) throws(JarvisError) -> String {
        guard raw.contains("~") else { return String(raw) }
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default:
                throw JarvisError(
                    .invalidParams,
                    "JSON Pointer '\(text)' has a '~' not followed by 0 or 1 (write ~0 for '~', ~1 for '/')")
            }
        }
        return result
    }

    private static func list(_ keys: Dictionary<String, PreferenceValue>.Keys) -> String {
        let sorted = keys.sorted()
        guard !sorted.isEmpty else { return "none" }
        let shown = sorted.prefix(8).joined(separator: ", ")
        return sorted.count > 8 ? shown + ", …" : shown
    }
}
