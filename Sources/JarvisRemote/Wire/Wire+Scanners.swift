import JarvisCore

/// `scanners` and `containers`: what an agent serves.
extension Wire {
    /// One scanner, as `scanners` lists it.
    public struct Scanner: WireMessage {
        /// Its id (`defaults`, `files`, `secrets`, …).
        public var id: String
        /// A name for people.
        public var name: String
        /// Whether its values are secrets (masked unless revealed).
        public var secret: Bool
        /// Whether it can be written through this agent now.
        public var writable: Bool
        /// Whether it works here; when not, `reason` says why.
        public var available: Bool
        /// Why it cannot work here.
        public var reason: String?
        /// The value types its containers store, in ``PreferenceType`` order; nil (absent:
        /// agents before 1.x, scanners that do not say) for every type. Added in 1.x.
        public var types: [PreferenceType]?

        /// A scanner as an agent describes it.
        public init(
            id: String, name: String, secret: Bool, writable: Bool, available: Bool, reason: String? = nil,
            types: [PreferenceType]? = nil
        ) {
            self.id = id
            self.name = name
            self.secret = secret
            self.writable = writable
            self.available = available
            self.reason = reason
            self.types = types
        }

        /// The wire form of a hub's scanner.
        package init(_ summary: ScannerSummary) {
            self.init(
                id: summary.id, name: summary.info.displayName, secret: summary.info.isSecret,
                writable: summary.isWritable, available: summary.info.unavailableReason == nil,
                reason: summary.info.unavailableReason, types: summary.valueTypes)
        }

        /// `{"id","name","secret","writable","available","reason"?,"types"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "id": .string(id), "name": .string(name), "secret": .bool(secret), "writable": .bool(writable),
                "available": .bool(available),
            ]
            object.setIfPresent("reason", reason.map(JSONValue.string))
            object.setIfPresent("types", types.map { .array($0.map { .string($0.rawValue) }) })
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a scanner")
            id = try fields.string("id")
            name = try fields.optionalString("name") ?? id
            secret = try fields.optionalBool("secret") ?? false
            writable = try fields.optionalBool("writable") ?? false
            available = try fields.optionalBool("available") ?? true
            reason = try fields.optionalString("reason")
            // A type a later version adds is skipped: what is left is still what may be offered.
            switch fields["types"] {
            case nil, .null?: types = nil
            default: types = try fields.list("types") { $0.stringValue.flatMap(PreferenceType.init(rawValue:)) }.compactMap { $0 }
            }
        }
    }

    /// One container, as `containers` lists it and as `list` reports a problem.
    public struct Container: WireMessage {
        /// The scanner it belongs to.
        public var scanner: String
        /// Its name (a suite, a file's relative path, a keyring service…).
        public var name: String
        /// Whether it can be written.
        public var writable: Bool
        /// Why it cannot be read, when it cannot.
        public var problem: String?

        /// A container as an agent describes it.
        public init(scanner: String, name: String, writable: Bool, problem: String? = nil) {
            self.scanner = scanner
            self.name = name
            self.writable = writable
            self.problem = problem
        }

        /// The wire form of a hub's container.
        package init(_ summary: ContainerSummary) {
            self.init(
                scanner: summary.scanner, name: summary.name, writable: summary.isWritable, problem: summary.problem)
        }

        /// `{"scanner","name","writable","problem"?}`
        public var json: JSONValue {
            var object: JSONObject = [
                "scanner": .string(scanner), "name": .string(name), "writable": .bool(writable),
            ]
            object.setIfPresent("problem", problem.map(JSONValue.string))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a container")
            scanner = try fields.string("scanner")
            name = try fields.string("name")
            writable = try fields.optionalBool("writable") ?? false
            problem = try fields.optionalString("problem")
        }
    }

    /// The answer to `scanners`.
    public struct ScannersResult: WireMessage {
        /// Every scanner, in the agent's order.
        public var scanners: [Scanner]

        /// The answer listing `scanners`.
        public init(_ scanners: [Scanner]) { self.scanners = scanners }

        /// `{"scanners":[…]}`
        public var json: JSONValue { .object(["scanners": .array(scanners.map(\.json))]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            scanners = try WireFields(json, "a scanners answer").list("scanners", Scanner.init(json:))
        }
    }

    /// The params of `scanners`: it takes none.
    public struct ScannersParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.scanners.rawValue

        /// No params.
        public init() {}

        /// `{}`
        public var json: JSONObject { [:] }
    }

    /// The params of `containers`.
    public struct ContainersParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.containers.rawValue
        /// Only this scanner's containers.
        public var scanner: String?

        /// Params for one scanner, or all.
        public init(scanner: String? = nil) { self.scanner = scanner }

        /// `{"scanner"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("scanner", scanner.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them.
        package init(params raw: JSONObject) throws(RPCError) {
            scanner = try WireFields(params: raw, method: .containers, allowed: ["scanner"]).optionalString("scanner")
        }
    }

    /// The answer to `containers`.
    public struct ContainersResult: WireMessage {
        /// Every visible container.
        public var containers: [Container]

        /// The answer listing `containers`.
        public init(_ containers: [Container]) { self.containers = containers }

        /// `{"containers":[…]}`
        public var json: JSONValue { .object(["containers": .array(containers.map(\.json))]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            containers = try WireFields(json, "a containers answer").list("containers", Container.init(json:))
        }
    }
}
