import JarvisCore

/// A JSON-RPC 2.0 error object: a numeric code, a message, and the Jarvis code name in `data`.
///
/// The standard codes come from the JSON-RPC specification; the agent's own live in
/// -32001…-32099, the range the specification reserves for implementations.
package struct RPCError: Error, Sendable, Hashable {
    /// The numeric JSON-RPC code.
    package var code: Int
    /// What went wrong and what to do.
    package var message: String
    /// The stable code name, e.g. `conflict` (in `error.data.code` on the wire).
    package var name: String
    /// More members of `error.data` after `code`, such as the revisions an MCP server speaks.
    package var details: JSONObject

    package init(code: Int, message: String, name: String, details: JSONObject = [:]) {
        self.code = code
        self.message = message
        self.name = name
        self.details = details
    }

    package static func parse(_ message: String) -> RPCError {
        RPCError(code: -32700, message: message, name: "parseError")
    }
    package static func invalidRequest(_ message: String) -> RPCError {
        RPCError(code: -32600, message: message, name: "invalidRequest")
    }
    /// `method` is not one of `names` (by default the agent's methods).
    package static func methodNotFound(_ method: String, among names: [String] = AgentMethod.names) -> RPCError {
        methodNotFound(
            message: "unknown method '\(method.prefix(100))'; the methods are \(names.joined(separator: ", "))")
    }
    /// A method that is not served, for the reason `message` gives.
    package static func methodNotFound(message: String) -> RPCError {
        RPCError(code: -32601, message: message, name: "methodNotFound")
    }
    package static func invalidParams(_ message: String) -> RPCError {
        RPCError(code: -32602, message: message, name: "invalidParams")
    }
    package static func internalError(_ message: String) -> RPCError {
        RPCError(code: -32603, message: message, name: "internalError")
    }
    /// A line over the reader's limit, which was dropped: framing errors are the same on every face.
    package static func lineTooLong(maxLineLength: Int) -> RPCError {
        RPCError(
            code: -32006,
            message:
                "the request line is longer than the limit of \(maxLineLength) bytes and was dropped; send a smaller request",
            name: JarvisError.Code.tooLarge.rawValue)
    }

    /// A request whose storage did not answer within `timeout`: its client is told so, and the
    /// agent keeps serving every other request.
    /// - Parameter storage: where the request went, when it named it (`secrets:github.com`),
    ///   so a client that sent several (`jarvis import`) can say which storage is stuck.
    package static func timedOut(after timeout: Duration, storage: String? = nil) -> RPCError {
        RPCError(
            code: -32007,
            message:
                "the request did not finish within \(spoken(timeout)): its storage (\(storage ?? "a file, a keyring, a Simulator")) is not answering; the agent keeps serving other requests, so try again later",
            name: JarvisError.Code.unavailable.rawValue)
    }

    /// The storage a request's params name, as ``timedOut(after:storage:)`` says it:
    /// `SCANNER:CONTAINER`, the container or the scanner alone; nil when they name none.
    package static func storage(named params: JSONObject) -> String? {
        let scanner = params["scanner"]?.stringValue
        let container = params["container"]?.stringValue
        switch (scanner, container) {
        case (let scanner?, let container?): return scanner + ":" + container
        case (nil, let container?): return container
        case (let scanner?, nil): return "scanner " + scanner
        case (nil, nil): return nil
        }
    }

    /// A timeout as a person reads it (``Duration/spoken``).
    static func spoken(_ timeout: Duration) -> String { timeout.spoken }

    /// An answer of `size` bytes, more than the output the agent may still queue for its
    /// clients (`limit` bytes for all of them together): refused rather than held in memory.
    /// `atLeast`: `size` is a lower bound, found before the answer was made.
    package static func answerTooLarge(size: Int, limit: Int, atLeast: Bool = false) -> RPCError {
        RPCError(
            code: -32006,
            message:
                "the answer is \(atLeast ? "at least " : "")\(size) bytes, more than the agent can queue now (\(limit) bytes for all clients together, JarvisAgent.Options.maxPendingOutputBytes), so it was left out (a change the request made stands); ask for part of the value with pointer, try again when other clients have read their answers, or raise the limit in the host",
            name: JarvisError.Code.tooLarge.rawValue)
    }

    /// The agent's own codes, by Jarvis error code.
    package static let agentCodes: [(JarvisError.Code, Int)] = [
        (.unauthorized, -32001), (.readOnly, -32002), (.notFound, -32003), (.conflict, -32004),
        (.typeMismatch, -32005), (.tooLarge, -32006), (.unavailable, -32007), (.storage, -32008),
        (.invalidParams, -32602),
    ]

    /// The wire form of a Jarvis error.
    package init(_ error: JarvisError) {
        let code = Self.agentCodes.first(where: { $0.0 == error.code })?.1 ?? -32603
        self.init(code: code, message: error.message, name: error.code.rawValue)
    }

    /// The Jarvis error a client raises for this wire error.
    package var jarvisError: JarvisError {
        if let known = Self.agentCodes.first(where: { $0.1 == code }) { return JarvisError(known.0, message) }
        return JarvisError(JarvisError.Code(rawValue: name), message)
    }

    /// `{"code":…,"message":…,"data":{"code":…}}`, and the ``details`` in `data`.
    package var json: JSONValue {
        guard !details.isEmpty else { return wire.json }
        var data: JSONObject = ["code": .string(name)]
        for (key, value) in details where key != "code" { data[key] = value }
        return .object(["code": .integer(code), "message": .string(message), "data": .object(data)])
    }

    /// The error object of the wire schema.
    package var wire: Wire.ErrorObject {
        Wire.ErrorObject(code: code, message: message, data: Wire.ErrorData(code: name))
    }

    /// The error an agent sent.
    package init(_ wire: Wire.ErrorObject) {
        self.init(code: wire.code, message: wire.message, name: wire.data.code)
    }
}
