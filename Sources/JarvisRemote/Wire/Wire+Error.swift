import JarvisCore

/// The error object of a failed request.
extension Wire {
    /// `{"code":…,"message":…,"data":{"code":…}}`: a JSON-RPC error with Jarvis's stable code name.
    public struct ErrorObject: WireMessage {
        /// The numeric JSON-RPC code (`-32004`).
        public var code: Int
        /// What went wrong and what to do, for a person.
        public var message: String
        /// The stable name to switch on.
        public var data: ErrorData

        /// An error object.
        public init(code: Int, message: String, data: ErrorData) {
            self.code = code
            self.message = message
            self.data = data
        }

        /// `{"code","message","data":{"code"}}`
        public var json: JSONValue {
            .object(["code": .integer(code), "message": .string(message), "data": data.json])
        }

        /// Reads an error an agent sent; what is missing gets a neutral default, so a broken
        /// error is still reported as an error.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "an error")
            code = Int(clamping: fields["code"]?.int64Value ?? -32603)
            message = fields["message"]?.stringValue ?? "unknown error"
            data = (try? ErrorData(json: fields["data"] ?? .null)) ?? ErrorData(code: "error")
        }
    }

    /// The `data` of an error.
    public struct ErrorData: WireMessage {
        /// The stable code name, e.g. `conflict` (the `code` of ``JarvisError``).
        public var code: String

        /// Data naming `code`.
        public init(code: String) { self.code = code }

        /// `{"code"}`
        public var json: JSONValue { .object(["code": .string(code)]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            code = try WireFields(json, "error data").string("code")
        }
    }
}
