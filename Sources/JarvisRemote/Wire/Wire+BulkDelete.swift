import JarvisCore

/// `delete` with `match` or `undeclared`: many keys of one container at once.
extension Wire {
    /// The params of a bulk `delete`: the stored keys of a container matching a glob, or the
    /// ones the host's key catalog does not declare.
    public struct BulkDeleteParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.delete.rawValue
        /// The scanner; nil lets the agent find it.
        public var scanner: String?
        /// The container.
        public var container: String
        /// The key glob; nil with `undeclared`.
        public var match: String?
        /// The stored keys the host's key catalog does not declare (orphans), instead of `match`.
        public var undeclared: Bool
        /// Only list what would go.
        public var dryRun: Bool
        /// The name of the change the removals belong to (a fan-out's id), recorded in each of
        /// their journal entries; nil for a change of their own. Added in protocol 1.x.
        public var change: String?

        /// Params removing the keys of `container` that match `match`.
        public init(scanner: String? = nil, container: String, match: String, dryRun: Bool = false) {
            self.scanner = scanner
            self.container = container
            self.match = match
            self.undeclared = false
            self.dryRun = dryRun
        }

        /// Params removing the keys of `container` that the host's key catalog does not declare.
        public init(scanner: String? = nil, undeclaredIn container: String, dryRun: Bool = false) {
            self.scanner = scanner
            self.container = container
            self.match = nil
            self.undeclared = true
            self.dryRun = dryRun
        }

        /// `{"scanner"?,"container","match"?,"undeclared"?,"dryRun"?,"change"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("scanner", scanner.map(JSONValue.string))
            object["container"] = .string(container)
            object.setIfPresent("match", match.map(JSONValue.string))
            if undeclared { object["undeclared"] = true }
            if dryRun { object["dryRun"] = true }
            object.setIfPresent("change", change.map(JSONValue.string))
            return object
        }

        /// Reads the params of a bulk delete (`WireFields` already checked the names), refusing
        /// what does not go with `match` or `undeclared`.
        package init(_ params: WireFields<RPCError>) throws(RPCError) {
            match = try params.optionalString("match")
            undeclared = try params.optionalBool("undeclared") ?? false
            guard match == nil || !undeclared else {
                throw RPCError.invalidParams("delete takes 'match' or 'undeclared', not both")
            }
            let name = match != nil ? "match" : "undeclared"
            for refused in ["key", "pointer", "expectedRevision"] where params[refused] != nil {
                throw RPCError.invalidParams(
                    "delete takes either 'key' or '\(name)', and '\(refused)' does not go with '\(name)'")
            }
            container = try params.string("container")
            scanner = try params.optionalString("scanner")
            dryRun = try params.optionalBool("dryRun") ?? false
            let change = try Wire.ChangeParams(params, pointer: false)
            if change.rollback {
                throw RPCError.invalidParams("rollback puts back one key; it does not go with '\(name)'")
            }
            self.change = change.change
        }
    }

    /// The answer to a bulk `delete`.
    public struct BulkDeleteResult: WireMessage {
        /// The scanner of the container.
        public var scanner: String
        /// The container.
        public var container: String
        /// The glob, as the agent read it; nil for an `undeclared` delete.
        public var match: String?
        /// Whether the keys were the undeclared ones.
        public var undeclared: Bool
        /// Whether nothing was changed.
        public var dryRun: Bool
        /// The keys that went (or would go), in order.
        public var keys: [String]

        /// The answer listing `keys`.
        public init(
            scanner: String, container: String, match: String?, undeclared: Bool = false, dryRun: Bool, keys: [String]
        ) {
            self.scanner = scanner
            self.container = container
            self.match = match
            self.undeclared = undeclared
            self.dryRun = dryRun
            self.keys = keys
        }

        /// `{"scanner","container","match"?,"dryRun","count","keys","undeclared"?}`, as documented.
        public var json: JSONValue {
            var object: JSONObject = ["scanner": .string(scanner), "container": .string(container)]
            object.setIfPresent("match", match.map(JSONValue.string))
            object["dryRun"] = .bool(dryRun)
            object["count"] = .integer(keys.count)
            object["keys"] = .array(keys.map(JSONValue.string))
            if undeclared { object["undeclared"] = true }
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a bulk delete answer")
            scanner = try fields.string("scanner")
            container = try fields.string("container")
            match = try fields.optionalString("match")
            undeclared = try fields.optionalBool("undeclared") ?? false
            dryRun = try fields.bool("dryRun")
            keys = try fields.list("keys") { raw throws(JarvisError) in
                guard let key = raw.stringValue else {
                    throw JarvisError(.storage, "the agent sent a bulk delete answer whose keys are not strings")
                }
                return key
            }
        }
    }
}
