import JarvisCore

extension Wire {
    /// `check`: what the host's key catalog does not expect (see ``JarvisHub/check(container:)``).
    public struct CheckParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.check.rawValue
        /// Only containers matching this glob; every visible container when nil.
        public var container: String?

        /// Params for the containers `container` matches.
        public init(container: String? = nil) {
            self.container = container
        }

        /// `{"container"?}`
        public var json: JSONObject {
            var object = JSONObject()
            object.setIfPresent("container", container.map(JSONValue.string))
            return object
        }

        /// Reads the params as the agent receives them.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(params: raw, method: .check, allowed: ["container"])
            container = try params.optionalString("container")
        }
    }

    /// One finding of `check`.
    public struct CheckFinding: WireMessage {
        /// The finding as the hub made it.
        public var finding: CatalogFinding

        /// The wire form of a finding.
        public init(_ finding: CatalogFinding) {
            self.finding = finding
        }

        /// `{"kind","scanner","container","key"?,"message"}`
        public var json: JSONValue {
            var object: JSONObject = [
                "kind": .string(finding.kind.rawValue), "scanner": .string(finding.scanner),
                "container": .string(finding.container),
            ]
            object.setIfPresent("key", finding.key.map(JSONValue.string))
            object["message"] = .string(finding.message)
            return .object(object)
        }

        /// Reads a finding an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a check finding")
            finding = CatalogFinding(
                CatalogFinding.Kind(rawValue: try fields.string("kind")), scanner: try fields.string("scanner"),
                container: try fields.string("container"), key: try fields.optionalString("key"),
                message: try fields.string("message"))
        }
    }

    /// The answer to `check`: `{"findings":[…]}`, empty when everything is as the catalog says.
    public struct CheckResult: WireMessage {
        /// What was found, by scanner, container and key.
        public var findings: [CheckFinding]

        /// Whether the host gave a key catalog: false when only container sizes could be
        /// checked; nil from an agent older than this field.
        public var catalog: Bool?

        /// An answer with these findings.
        public init(_ findings: [CheckFinding], catalog: Bool? = nil) {
            self.findings = findings
            self.catalog = catalog
        }

        /// `{"findings":[…],"catalog":true}`
        public var json: JSONValue {
            var object: JSONObject = ["findings": .array(findings.map(\.json))]
            if let catalog { object["catalog"] = .bool(catalog) }
            return .object(object)
        }

        /// Reads the answer an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a check answer")
            findings = try fields.list("findings", CheckFinding.init(json:))
            catalog = try fields.optionalBool("catalog")
        }

        /// The sentence a face shows when nothing was found: what was compared with what.
        public var nothingFound: String {
            catalog == false
                ? "nothing found: the host gave no key catalog, so only container sizes were checked"
                : "nothing found: every key is as the key catalog says"
        }
    }
}
