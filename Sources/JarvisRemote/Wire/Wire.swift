import JarvisCore

/// The typed wire schema of docs/PROTOCOL.md: one two-way struct per request's params, per
/// result and per notification, used by the agent to answer, by the client to read and by
/// the CLI to print, so no side builds or parses a message by hand.
///
/// Each struct encodes to exactly the members, in exactly the order, the protocol documents
/// (`json`), and decodes what the other side sent (`init(json:)`). Later minor versions only
/// add optional members, so decoders ignore members they do not know. The structs are pure
/// values: no sockets, tested with the byte strings of the protocol document.
public enum Wire {
    /// The protocol version this build speaks.
    public static var protocolVersion: String { ProtocolVersion.current }
}

/// A result or notification body with one shape on the wire.
public protocol WireMessage: Sendable, Hashable {
    /// Reads the body an agent sent.
    /// - Throws: ``JarvisError`` `.storage` naming the member that is missing or malformed.
    init(json: JSONValue) throws(JarvisError)

    /// The body as it goes on the wire.
    var json: JSONValue { get }
}

/// The params of a request, written by a client and read by the agent.
public protocol WireParams: Sendable, Hashable {
    /// The method these params go with.
    static var method: String { get }

    /// The params object as a client sends it.
    var json: JSONObject { get }
}

extension JSONObject {
    /// Sets `name` only when `value` is non-nil, so optional members stay absent on the wire.
    mutating func setIfPresent(_ name: String, _ value: JSONValue?) {
        if let value { self[name] = value }
    }

    /// `{"scanner"?,"container"?,"key"?,"reveal"?}`: the filters `list` and `watch` share.
    static func filters(scanner: String?, container: String?, key: String?, reveal: Bool) -> JSONObject {
        var object = JSONObject()
        object.setIfPresent("scanner", scanner.map(JSONValue.string))
        object.setIfPresent("container", container.map(JSONValue.string))
        object.setIfPresent("key", key.map(JSONValue.string))
        if reveal { object["reveal"] = true }
        return object
    }
}

extension JSONValue {
    /// A whole number on the wire.
    package static func integer(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }
    /// A whole number on the wire.
    package static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}
