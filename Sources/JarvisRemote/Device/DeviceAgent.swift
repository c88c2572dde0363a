import JarvisCore

/// What answered on one port of a device: an app's embedded agent (with what it allows), an
/// agent that wants its token first, nothing, or why the port could not be tried.
package struct DeviceAgent: Sendable, Hashable {
    /// The outcome's kind; extensible.
    package struct Status: RawRepresentable, Sendable, Hashable {
        /// The word `--json` prints.
        package var rawValue: String
        /// A status by its word.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// An agent answered `hello` (see ``DeviceAgent/hello``).
        package static let answered = Status(rawValue: "answered")
        /// An agent answered, but refused a `hello` without its token (or with a wrong one).
        package static let needsToken = Status(rawValue: "needsToken")
        /// Nothing listens on the port (usbmuxd's ConnectionRefused).
        package static let none = Status(rawValue: "none")
        /// The port could not be tried or what answered is no agent (see ``DeviceAgent/reason``).
        package static let failed = Status(rawValue: "failed")
    }

    /// The device port tried.
    package var port: UInt16
    /// What happened.
    package var status: Status
    /// The agent's answer to `hello`, when ``status`` is ``Status/answered``.
    package var hello: Wire.HelloResult?
    /// Why not, in words, for ``Status/needsToken`` and ``Status/failed``.
    package var reason: String?

    /// An outcome with every field given.
    package init(port: UInt16, status: Status, hello: Wire.HelloResult? = nil, reason: String? = nil) {
        self.port = port
        self.status = status
        self.hello = hello
        self.reason = reason
    }

    /// One line for the devices table: `Notes (pid 412) on 7777: editing, reveal`.
    package var summary: String {
        switch status {
        case .answered:
            guard let hello else { return "an agent on \(port)" }
            let allows = [
                hello.capabilities.editing ? "editing" : "read-only", hello.capabilities.reveal ? "reveal" : nil,
                hello.capabilities.production ? "production" : nil,
            ].compactMap { $0 }
            return "\(hello.agent) (pid \(hello.pid)) on \(port): \(allows.joined(separator: ", "))"
        case .needsToken: return "an agent on \(port) (needs its token)"
        case .none: return "none on \(port)"
        default: return "\(port) failed: \(reason ?? "no reason given")"
        }
    }

    /// The outcome as `jarvis devices --json` prints it: `{"port","status","agent"?,"pid"?,
    /// "platform"?,"capabilities"?,"scanners"?,"reason"?}`.
    package var json: JSONValue {
        var object: JSONObject = ["port": .number(JSONNumber(Int(port))), "status": .string(status.rawValue)]
        if let hello, case .object(let answer) = hello.json {
            for key in ["agent", "pid", "platform", "protocolVersion", "capabilities", "scanners"] {
                object.setIfPresent(key, answer[key])
            }
        }
        object.setIfPresent("reason", reason.map(JSONValue.string))
        return .object(object)
    }
}
