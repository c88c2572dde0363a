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

        /// An answer with these findings.
        public init(_ findings: [CheckFinding]) {
            self.findings = findings
        }

        /// `{"findings":[…]}`
        public var json: JSONValue { .object(["findings": .array(findings.map(\.json))]) }

        /// Reads the answer an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a check answer")
            findings = try fields.list("findings", CheckFinding.init(json:))
        }
    }
}
