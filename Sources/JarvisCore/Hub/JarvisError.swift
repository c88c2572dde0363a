/// The one error type of Jarvis: what went wrong, in words a person can act on, plus a code
/// a program can switch on.
///
/// `Code` is a struct rather than an enum so that new codes never break a caller's `switch`.
/// Messages never contain a hidden item's name or a secret's value.
public struct JarvisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's wire name, e.g. `notFound`.
        public let rawValue: String
        /// Wraps a code name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire name.
        public var description: String { rawValue }

        /// No such scanner, container or key (or one the configuration hides).
        public static let notFound = Code(rawValue: "notFound")
        /// Editing is disabled, or the item or scanner cannot be written.
        public static let readOnly = Code(rawValue: "readOnly")
        /// The expected revision no longer matches: somebody changed the value first.
        public static let conflict = Code(rawValue: "conflict")
        /// The value does not fit the type asked for, or the type the key requires.
        public static let typeMismatch = Code(rawValue: "typeMismatch")
        /// A request, value or line is larger than the agent accepts.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The client has not authenticated, or asked for something it may not have.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The request's parameters are missing, malformed or contradictory.
        public static let invalidParams = Code(rawValue: "invalidParams")
        /// The scanner or its backend cannot work here (for example, a missing library).
        public static let unavailable = Code(rawValue: "unavailable")
        /// Reading or writing the storage failed (a file, a keyring).
        public static let storage = Code(rawValue: "storage")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension JarvisError {
    /// The answer for any address the client may not see: identical whether or not it exists.
    package static func noKey(_ key: String, in container: String) -> JarvisError {
        JarvisError(.notFound, "no key '\(key)' in '\(container)'")
    }

    /// The answer for an unknown or disabled scanner.
    package static func noScanner(_ scanner: String) -> JarvisError {
        JarvisError(.notFound, "no scanner '\(scanner)' (run `jarvis ls` to see the scanners)")
    }
}

extension JarvisError {
    /// The answer to a write that would create a key where none can be: in a container that
    /// does not exist and cannot be created, and for every hidden container or key, so that
    /// a hidden name answers exactly like a name that is not there.
    package static func cannotCreate(_ key: String, in container: String) -> JarvisError {
        JarvisError(
            .notFound,
            "no key '\(key)' in '\(container)', and it cannot be created there (run `jarvis ls` to see what exists)")
    }

    /// The answer to a pointer edit of a key that is not there (or is hidden).
    package static func nothingToEditInside(_ key: String, in container: String) -> JarvisError {
        JarvisError(.notFound, "no key '\(key)' in '\(container)' to edit inside; set the whole key first")
    }
}

extension JarvisError {
    /// The answer to an undeclared-keys request where the host declared no keys: without a
    /// catalog every key would count as undeclared, so nothing is listed or removed.
    package static func notCatalogued(_ container: String, scanner: String) -> JarvisError {
        JarvisError(
            .invalidParams,
            "the host's key catalog declares no keys in '\(scanner):\(container)', so no key there counts as undeclared; nothing was listed or removed"
        )
    }
}
