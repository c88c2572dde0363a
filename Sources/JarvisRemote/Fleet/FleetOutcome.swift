import JarvisCore

/// What one command did on one agent of a fan-out (`--agents`).
public struct FleetOutcome: Sendable, Hashable {
    /// What happened, as a word a person and a script can both read.
    public struct Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The word, e.g. `changed`.
        public let rawValue: String
        /// Creates a status from its word.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The word.
        public var description: String { rawValue }

        /// Read as asked (`get`, `ls`, `export`).
        public static let ok = Status(rawValue: "ok")
        /// Written as asked (`set`, `rm`, `undo`, `import`).
        public static let changed = Status(rawValue: "changed")
        /// `--dry-run`: would be written; nothing was.
        public static let wouldChange = Status(rawValue: "would change")
        /// The key changed on this agent since it was read: nothing was overwritten.
        public static let conflict = Status(rawValue: "conflict")
        /// The agent does not allow it (a production agent, editing off, reveal not allowed).
        public static let refused = Status(rawValue: "refused")
        /// The key or container is not there.
        public static let notFound = Status(rawValue: "not found")
        /// The agent answered with another error.
        public static let failed = Status(rawValue: "failed")
        /// The agent did not answer within the fan-out's bound.
        public static let noAnswer = Status(rawValue: "no answer")
        /// A term of `--agents` matched no running agent.
        public static let notRunning = Status(rawValue: "not running")

        /// Whether the agent did what was asked (dry runs included).
        public var succeeded: Bool { [.ok, .changed, .wouldChange].contains(self) }
    }

    /// How the agent is shown: its name, with `@DEVICE` for a Simulator app, and `[PID]`
    /// where several agents of the fan-out share that; a term of `--agents` for
    /// ``Status/notRunning``.
    public var agent: String
    /// The agent's process id; nil for ``Status/notRunning``.
    public var pid: Int32?
    /// The agent's ``AgentRecord/identity``; nil for ``Status/notRunning``.
    public var identity: String?
    /// What happened.
    public var status: Status
    /// The value (or `current → new`), when there is one to show.
    public var value: String?
    /// Why it did not happen, when it did not.
    public var reason: String?
    /// More for `--json` (an item, a listing), as the single-agent command prints it.
    public var detail: JSONValue?

    /// An outcome.
    public init(
        agent: String, pid: Int32? = nil, identity: String? = nil, status: Status, value: String? = nil,
        reason: String? = nil, detail: JSONValue? = nil
    ) {
        self.agent = agent
        self.pid = pid
        self.identity = identity
        self.status = status
        self.value = value
        self.reason = reason
        self.detail = detail
    }

    /// What a body running on one agent returns; the runner adds who the agent is.
    public struct Result: Sendable, Hashable {
        /// What happened.
        public var status: Status
        /// The value to show.
        public var value: String?
        /// Why it did not happen.
        public var reason: String?
        /// More for `--json`.
        public var detail: JSONValue?

        /// A result.
        public init(_ status: Status, value: String? = nil, reason: String? = nil, detail: JSONValue? = nil) {
            self.status = status
            self.value = value
            self.reason = reason
            self.detail = detail
        }

        /// The refusal of a write on an agent that does not allow editing (a production or a
        /// read-only agent), naming why; nil when it allows it. Every face's fan-out asks this
        /// before it sends a write.
        package static func editingRefusal(_ capabilities: Wire.Capabilities) -> Result? {
            if capabilities.production {
                return Result(.refused, reason: "a production agent: editing is off; nothing was written")
            }
            if !capabilities.editing {
                return Result(.refused, reason: "editing is off on this agent (read-only); nothing was written")
            }
            return nil
        }

        /// The result of an error an agent answered: a conflict, a refusal, a missing key, or
        /// a failure, with the agent's message as the reason.
        public init(_ error: JarvisError) {
            let status: Status =
                switch error.code {
                case .conflict: .conflict
                case .readOnly, .unauthorized: .refused
                case .notFound: .notFound
                default: .failed
                }
            self.init(status, reason: error.message)
        }
    }

    /// `{"agent","pid","identity","status","ok","value","reason","detail"}`, absent members
    /// left out.
    public var json: JSONValue {
        var object: JSONObject = ["agent": .string(agent)]
        object.setIfPresent("pid", pid.map { .integer(Int64($0)) })
        object.setIfPresent("identity", identity.map(JSONValue.string))
        object["status"] = .string(status.rawValue)
        object["ok"] = .bool(status.succeeded)
        object.setIfPresent("value", value.map(JSONValue.string))
        object.setIfPresent("reason", reason.map(JSONValue.string))
        object.setIfPresent("detail", detail)
        return .object(object)
    }
}
