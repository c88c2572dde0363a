import JarvisCore

extension Wire {
    /// What a client must present in `hello` (`capabilities.auth`). A struct, not an enum, so
    /// that new modes never break a `switch`.
    public struct AuthMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire word, e.g. `token`.
        public let rawValue: String
        /// Wraps a wire word.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire word written as a literal.
        public init(stringLiteral value: String) { rawValue = value }
        /// The wire word.
        public var description: String { rawValue }

        /// Nothing: the owner-only Unix socket already says who the client is.
        public static let none = AuthMode(rawValue: "none")
        /// The agent's token, in `hello`'s `token` (TCP).
        public static let token = AuthMode(rawValue: "token")
    }
}

extension ChangeNotification.Change {
    /// What happened to a key. A struct, not an enum, so that new kinds never break a
    /// `switch`; compare with the static members (`change.kind == .updated`).
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire word, e.g. `updated`.
        public let rawValue: String
        /// Wraps a wire word.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire word written as a literal.
        public init(stringLiteral value: String) { rawValue = value }
        /// The wire word.
        public var description: String { rawValue }

        /// The key was created.
        public static let added = Kind(rawValue: "added")
        /// The key's value changed.
        public static let updated = Kind(rawValue: "updated")
        /// The key was removed.
        public static let removed = Kind(rawValue: "removed")
    }
}

extension ChangeNotification.Change.Kind {
    /// The kind of a change the engine found.
    package init(_ kind: RawChange.Kind) {
        switch kind {
        case .added: self = .added
        case .updated: self = .updated
        case .removed: self = .removed
        }
    }
}

extension JarvisError.Code {
    /// The agent does not know the method (an older agent, or a misspelt name): JSON-RPC's
    /// `methodNotFound`.
    public static let methodNotFound = JarvisError.Code(rawValue: "methodNotFound")
}
