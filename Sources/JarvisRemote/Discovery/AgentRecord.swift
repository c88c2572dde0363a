import Foundation
import JarvisCore
import JarvisTransport

/// The small JSON file a running agent leaves in the runtime folder so that clients find it.
///
/// An agent serves on a Unix socket (`socket`), normally in the runtime folder; when that
/// path would pass the system's limit it serves from a short private folder instead, or only
/// on loopback TCP (`tcp` and `token`, no `socket`). ``endpoint`` is where a client goes.
public struct AgentRecord: Sendable, Hashable {
    /// The host process id.
    public var pid: Int32
    /// The agent's name (by default the executable's).
    public var name: String
    /// The Unix socket's path, or nil when the agent serves only on TCP.
    public var socket: String?
    /// When the agent started, ISO 8601.
    public var started: String
    /// The platform, e.g. `Linux`.
    public var platform: String
    /// The TCP endpoint, `tcp://host:port`, when TCP is on.
    public var tcp: String?
    /// The TCP token (the file is owner-only), when TCP is on. It is sent only to exactly
    /// the host and port in ``tcp``.
    public var token: String?
    /// The iOS Simulator device the agent runs in (its name), for agents found in the
    /// Simulator's app containers; nil for agents of this machine. Not written to the file.
    public var device: String?
    /// The bundle id of the Simulator app the agent runs in, from its container's metadata;
    /// nil for agents of this machine. Not written to the file.
    public var bundleID: String?
    /// The program the agent runs in: its bundle id where it has one, else its executable's
    /// name (nil in the records of older agents). With ``name``, ``device`` and
    /// ``bundleID`` it makes ``identity``.
    public var program: String?

    /// Creates a record.
    public init(
        pid: Int32, name: String, socket: String?, started: String, platform: String, tcp: String? = nil,
        token: String? = nil, program: String? = nil
    ) {
        self.program = program
        self.pid = pid
        self.name = name
        self.socket = socket
        self.started = started
        self.platform = platform
        self.tcp = tcp
        self.token = token
    }

    /// Where a client connects: the Unix socket when there is one, else the TCP endpoint.
    public var endpoint: Endpoint? {
        if let socket { return .unix(path: socket) }
        return tcp.flatMap { try? Endpoint(parsing: $0) }
    }

    /// What the file holds (``device`` and ``bundleID`` are added for listings only).
    package var json: JSONValue {
        var object: JSONObject = [
            "pid": .number(JSONNumber(Int64(pid))), "name": .string(name), "started": .string(started),
            "platform": .string(platform), "protocolVersion": .string(ProtocolVersion.current),
        ]
        if let program { object["program"] = .string(program) }
        if let socket { object["socket"] = .string(socket) }
        if let tcp { object["tcp"] = .string(tcp) }
        if let token { object["token"] = .string(token) }
        if let device { object["device"] = .string(device) }
        if let bundleID { object["bundleID"] = .string(bundleID) }
        return .object(object)
    }

    /// Reads a discovery file; nil unless it names a pid, a name and a socket or TCP endpoint.
    package init?(json: JSONValue) {
        guard let pid = json["pid"]?.int64Value, let name = json["name"]?.stringValue else { return nil }
        let socket = json["socket"]?.stringValue
        let tcp = json["tcp"]?.stringValue
        guard socket != nil || tcp != nil else { return nil }
        self.init(
            pid: Int32(truncatingIfNeeded: pid), name: name, socket: socket,
            started: json["started"]?.stringValue ?? "", platform: json["platform"]?.stringValue ?? "", tcp: tcp,
            token: json["token"]?.stringValue, program: json["program"]?.stringValue)
    }

    /// Who the agent is across restarts: `PROGRAM/NAME@DEVICE`, where PROGRAM is the
    /// Simulator app's bundle id, else the recorded ``program``; `/NAME` is left out when the
    /// name is the program's, and `@DEVICE` for agents of this machine. An app relaunched on
    /// the same Simulator device keeps its identity; its pid and socket change.
    public var identity: String {
        let program = bundleID ?? self.program ?? name
        var text = program
        if name != program { text += "/" + name }
        if let device { text += "@" + device }
        return text
    }
}
