import Foundation
import JarvisCore

/// The small JSON file a running agent leaves in the runtime folder so that clients find it.
public struct AgentRecord: Sendable, Hashable {
    /// The host process id.
    public var pid: Int32
    /// The agent's name (by default the executable's).
    public var name: String
    /// The Unix socket's path.
    public var socket: String
    /// When the agent started, ISO 8601.
    public var started: String
    /// The platform, e.g. `Linux`.
    public var platform: String
    /// The TCP endpoint, `tcp://host:port`, when TCP is on.
    public var tcp: String?
    /// The TCP token (the file is owner-only), when TCP is on.
    public var token: String?

    /// Creates a record.
    public init(
        pid: Int32, name: String, socket: String, started: String, platform: String, tcp: String? = nil,
        token: String? = nil
    ) {
        self.pid = pid
        self.name = name
        self.socket = socket
        self.started = started
        self.platform = platform
        self.tcp = tcp
        self.token = token
    }

    package var json: JSONValue {
        var object: JSONObject = [
            "pid": .number(JSONNumber(Int64(pid))), "name": .string(name), "socket": .string(socket),
            "started": .string(started), "platform": .string(platform),
            "protocolVersion": .string(ProtocolVersion.current),
        ]
        if let tcp { object["tcp"] = .string(tcp) }
        if let token { object["token"] = .string(token) }
        return .object(object)
    }

    package init?(json: JSONValue) {
        guard let pid = json["pid"]?.int64Value, let name = json["name"]?.stringValue,
            let socket = json["socket"]?.stringValue
        else { return nil }
        self.init(
            pid: Int32(truncatingIfNeeded: pid), name: name, socket: socket,
            started: json["started"]?.stringValue ?? "", platform: json["platform"]?.stringValue ?? "",
            tcp: json["tcp"]?.stringValue, token: json["token"]?.stringValue)
    }
}
