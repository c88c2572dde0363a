import JarvisCore

extension ChangeNotification {
    /// A container that could no longer be read, or could be read again: the `container`
    /// member of a `changed` notification.
    ///
    /// While a container is unreadable (a JSON file half-written, replaced by garbage, or
    /// without read permission) its keys are not reported removed: the agent keeps its last
    /// good read, and the notification that says it is ``Kind/readable`` again carries in
    /// `changes` only what differs from that read.
    public struct ContainerChange: Sendable, Hashable {
        /// `unreadable` or `readable`; other kinds may come in later protocol versions.
        public var kind: Kind
        /// The scanner the container belongs to.
        public var scanner: String
        /// The container's name.
        public var name: String
        /// With ``Kind/unreadable``: what is wrong, in the one line `list` shows in `problems`.
        public var problem: String?

        /// A change of container `name` of `scanner`.
        public init(kind: Kind, scanner: String, name: String, problem: String? = nil) {
            self.kind = kind
            self.scanner = scanner
            self.name = name
            self.problem = problem
        }

        /// `{"kind","scanner","name","problem"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "kind": .string(kind.rawValue), "scanner": .string(scanner), "name": .string(name),
            ]
            object.setIfPresent("problem", problem.map(JSONValue.string))
            return .object(object)
        }

        /// Reads the `container` member an agent sent.
        /// - Throws: ``JarvisError`` `.storage` when it lacks a kind, scanner or name.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a container change")
            guard let kind = fields["kind"]?.stringValue, let scanner = fields["scanner"]?.stringValue,
                let name = fields["name"]?.stringValue
            else {
                throw JarvisError(.storage, "the agent sent a container change without kind, scanner and name")
            }
            self.kind = Kind(rawValue: kind)
            self.scanner = scanner
            self.name = name
            problem = fields["problem"]?.stringValue
        }

        /// The container change of an event, or nil when the container was read as before.
        package init?(_ state: ContainerStateChange?, scanner: String, name: String) {
            switch state {
            case nil: return nil
            case .unreadable(let problem): self.init(kind: .unreadable, scanner: scanner, name: name, problem: problem)
            case .readable: self.init(kind: .readable, scanner: scanner, name: name)
            }
        }
    }
}

extension ChangeNotification.ContainerChange {
    /// What happened to a container. A struct, not an enum, so that new kinds never break a
    /// `switch`; compare with the static members (`change.kind == .unreadable`).
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire word, e.g. `unreadable`.
        public let rawValue: String
        /// Wraps a wire word.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire word written as a literal.
        public init(stringLiteral value: String) { rawValue = value }
        /// The wire word.
        public var description: String { rawValue }

        /// The container cannot be read now; `problem` says why.
        public static let unreadable = Kind(rawValue: "unreadable")
        /// The container can be read again.
        public static let readable = Kind(rawValue: "readable")
    }
}
