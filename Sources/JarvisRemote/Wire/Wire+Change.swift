import JarvisCore

/// `change` and `rollback` on `set` and `delete`: several writes of one connection journaled as
/// one change (a `group`), which one `undo` takes back whole.
extension Wire {
    /// Which change of several writes a `set` or `delete` belongs to, and whether it puts one of
    /// them back.
    public struct ChangeParams: Sendable, Hashable {
        /// The longest `change` an agent takes, in characters.
        public static let longest = 64

        /// A name the client chooses for the change (a UUID): this connection's writes sent with
        /// the same name are one change in the journal. Nil for a write of its own.
        public var change: String?
        /// The write puts back this connection's earlier write of the key in `change` (an import
        /// refused part way): journaled as a rollback, so neither is ever undone or redone.
        public var rollback: Bool

        /// A change's params; none by default.
        public init(change: String? = nil, rollback: Bool = false) {
            self.change = change
            self.rollback = rollback
        }

        /// Adds `change` and `rollback` to a write's params, when set.
        func write(into object: inout JSONObject) {
            object.setIfPresent("change", change.map(JSONValue.string))
            if rollback { object["rollback"] = .bool(true) }
        }

        /// Reads them from a write's params.
        /// - Parameter pointer: the write names a place inside a value, which a rollback cannot.
        init(_ params: WireFields<RPCError>, pointer: Bool) throws(RPCError) {
            change = try params.optionalString("change")
            rollback = try params.optionalBool("rollback") ?? false
            if let change, change.isEmpty || change.count > Self.longest {
                throw RPCError.invalidParams("change must be a name of 1 to \(Self.longest) characters (a UUID)")
            }
            if rollback && change == nil {
                throw RPCError.invalidParams("rollback puts back a write of a change: send the change's name with it")
            }
            if rollback && pointer {
                throw RPCError.invalidParams("rollback puts back a whole key; a pointer does not go with it")
            }
        }
    }
}
