import Foundation

/// One change, secret reveal or export of secrets made through the agent: who did what to
/// which address, when.
///
/// Records carry revisions, never values, so the trail itself leaks no secret and can be
/// shown to anyone who may use the agent.
public struct AuditRecord: Sendable, Hashable {
    /// What the client did. A struct, not an enum, so that new kinds never break a `switch`.
    public struct Action: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire name, e.g. `set`.
        public let rawValue: String
        /// Wraps a wire name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire name written as a literal, e.g. `"set"`.
        public init(stringLiteral value: String) { rawValue = value }
        /// The wire name.
        public var description: String { rawValue }

        /// A value was stored (created or changed).
        public static let set = Action(rawValue: "set")
        /// A stored value was removed.
        public static let delete = Action(rawValue: "delete")
        /// A secret's value was sent to a client in clear.
        public static let reveal = Action(rawValue: "reveal")
        /// A listing marked as an export asked for secrets' values: the record's address holds
        /// the listing's filters (`*` where it had none) and ``AuditRecord/count`` how many
        /// secrets it sent in clear (each also has its own ``reveal`` record).
        public static let export = Action(rawValue: "export")
        /// A journal entry was taken back by a guarded write; ``AuditRecord/reverts`` names it.
        public static let undo = Action(rawValue: "undo")
        /// An undo was taken back (its change put back); ``AuditRecord/reverts`` names the undo.
        public static let redo = Action(rawValue: "redo")
    }

    /// How a client reached the agent. A struct, not an enum, so that new transports never
    /// break a `switch`.
    public struct Transport: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire name, e.g. `unix`.
        public let rawValue: String
        /// Wraps a wire name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps a wire name written as a literal, e.g. `"tcp"`.
        public init(stringLiteral value: String) { rawValue = value }
        /// The wire name.
        public var description: String { rawValue }

        /// The agent's owner-only Unix socket.
        public static let unix = Transport(rawValue: "unix")
        /// TCP, with a token.
        public static let tcp = Transport(rawValue: "tcp")
        /// A face in the host's own process (the in-app panel), with no socket.
        public static let inProcess = Transport(rawValue: "in-process")
    }

    /// Who made the request, as the agent saw the connection.
    public struct Client: Sendable, Hashable {
        /// How the client reached the agent.
        public var transport: Transport
        /// The peer: `address:port` for TCP, process credentials for a Unix socket.
        public var peer: String
        /// The name the client gave in `hello`, if any.
        public var name: String?

        /// Creates a client description.
        public init(transport: Transport, peer: String, name: String?) {
            self.transport = transport
            self.peer = peer
            self.name = name
        }
    }

    /// Increasing within one agent run; assigned by ``AuditLog``.
    public var sequence: UInt64
    /// When the agent performed the action.
    public var time: Date
    /// What was done.
    public var action: Action
    /// Who asked.
    public var client: Client
    /// Where.
    public var address: PreferenceAddress
    /// The revision before (nil when the key was created).
    public var oldRevision: Revision?
    /// The revision after (nil when the key was removed; equal to the old one for a reveal).
    public var newRevision: Revision?
    /// Where inside the key's value a pointer edit changed it; nil for the whole value.
    public var pointer: JSONPointer? = nil
    /// How many secrets an ``Action/export`` sent in clear; nil for other actions.
    public var count: Int? = nil
    /// For an ``Action/undo`` or ``Action/redo``, the journal entry it took back.
    public var reverts: Int64? = nil

    /// Creates a record; ``AuditLog/append(_:)`` replaces `sequence`.
    public init(
        sequence: UInt64 = 0, time: Date = Date(), action: Action, client: Client, address: PreferenceAddress,
        oldRevision: Revision?, newRevision: Revision?
    ) {
        self.sequence = sequence
        self.time = time
        self.action = action
        self.client = client
        self.address = address
        self.oldRevision = oldRevision
        self.newRevision = newRevision
    }
}
