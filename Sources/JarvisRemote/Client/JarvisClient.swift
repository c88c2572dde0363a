import Foundation
import JarvisCore

/// A connection to an agent, for the `jarvis` CLI and for a host's own tests.
///
/// Calls are synchronous and one at a time (a lock orders them); notifications that arrive
/// between answers are kept for ``nextNotification(timeout:)``.
public final class JarvisClient: Sendable {
    /// What the agent said in `hello`.
    public var hello: JSONObject { helloAnswer.current }
    private let helloAnswer = Locked<JSONObject>([:])
    private let connection: LineClient
    private let state = Locked(State())
    private let callLock = Locked<Void>(())

    private struct State {
        var nextID: Int64 = 1
        var notifications: [(method: String, params: JSONObject)] = []
    }

    /// Connects and says hello.
    /// - Parameters:
    ///   - endpoint: where the agent listens.
    ///   - clientName: how the agent's audit trail will name this client.
    ///   - token: the agent's token, needed on TCP (ignored by agents on a Unix socket).
    ///   - timeout: how long to wait for the connection and for each answer.
    /// - Throws: ``JarvisError`` when the agent cannot be reached, refuses the hello (wrong
    ///   token: `.unauthorized`), or speaks another major protocol version.
    public init(
        endpoint: Endpoint, clientName: String = "jarvis", token: String? = nil, timeout: Duration = .seconds(10)
    ) throws(JarvisError) {
        do {
            connection = try LineClient(endpoint: endpoint, timeout: timeout)
        } catch {
            throw JarvisError(.unavailable, "cannot connect to the agent: \(error)")
        }
        self.timeout = timeout
        var params: JSONObject = ["client": .string(clientName), "protocolVersion": .string(ProtocolVersion.current)]
        if let token { params["token"] = .string(token) }
        let answer: JSONValue
        do throws(JarvisError) {
            answer = try call("hello", params)
        } catch {
            connection.close()
            throw error
        }
        guard case .object(let object) = answer else {
            connection.close()
            throw JarvisError(.storage, "the agent answered hello with something other than an object")
        }
        do throws(JarvisError) {
            try ProtocolVersion.checkAgent(object["protocolVersion"]?.stringValue)
        } catch {
            connection.close()
            throw error
        }
        helloAnswer.withLock { $0 = object }
    }

    private let timeout: Duration

    /// Sends one request and waits for its answer.
    /// - Throws: ``JarvisError`` carrying the agent's error code and message.
    public func call(_ method: String, _ params: JSONObject = [:]) throws(JarvisError) -> JSONValue {
        try callLock.withLock { (_: inout Void) throws(JarvisError) -> JSONValue in try exchange(method, params) }
    }

    private func exchange(_ method: String, _ params: JSONObject) throws(JarvisError) -> JSONValue {
        let id = state.withLock { state -> Int64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let request = RPCRequest(id: .number(JSONNumber(id)), method: method, params: params)
        do {
            try connection.send(request.line)
        } catch {
            throw JarvisError(.unavailable, "the connection to the agent is closed: \(error)")
        }
        while true {
            let line: [UInt8]?
            do {
                line = try connection.receiveLine(timeout: timeout)
            } catch {
                throw JarvisError(.unavailable, "lost the connection to the agent: \(error)")
            }
            guard let line else {
                throw JarvisError(.unavailable, "the agent closed the connection")
            }
            switch try RPCResponse.decode(line) {
            case .notification(let name, let params):
                state.withLock { $0.notifications.append((name, params)) }
            case .result(let answerID, let result) where answerID == .number(JSONNumber(id)):
                return result
            case .error(let answerID, let error) where answerID == .number(JSONNumber(id)) || answerID == .null:
                throw error.jarvisError
            default:
                continue
            }
        }
    }

    /// The next notification the agent pushed (such as `changed`), waiting up to `timeout`;
    /// nil when none came in time.
    public func nextNotification(timeout: Duration?) throws(JarvisError) -> (method: String, params: JSONObject)? {
        if let queued = state.withLock({ $0.notifications.isEmpty ? nil : $0.notifications.removeFirst() }) {
            return queued
        }
        return try callLock.withLock { (_: inout Void) throws(JarvisError) -> (method: String, params: JSONObject)? in
            while true {
                let received: [UInt8]?
                do {
                    received = try connection.receiveLine(timeout: timeout)
                } catch {
                    return nil  // Nothing in time (or the socket failed): no notification.
                }
                guard let line = received else {
                    throw JarvisError(.unavailable, "the agent closed the connection")
                }
                if case .notification(let name, let params) = try RPCResponse.decode(line) {
                    return (name, params)
                }
            }
        }
    }

    /// Closes the connection.
    public func close() {
        connection.close()
    }
}

extension JarvisClient {
    /// Every visible item matching the filters (patterns are globs), fetched page by page.
    public func list(scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false)
        throws(JarvisError) -> (items: [PreferenceItem], problems: [JSONValue])
    {
        var params = JSONObject()
        if let scanner { params["scanner"] = .string(scanner) }
        if let container { params["container"] = .string(container) }
        if let key { params["key"] = .string(key) }
        if reveal { params["reveal"] = true }
        let result = try listAll(params)
        var items: [PreferenceItem] = []
        for raw in result["items"]?.arrayValue ?? [] { items.append(try WireItem.decode(raw)) }
        return (items, result["problems"]?.arrayValue ?? [])
    }

    /// Calls `list` with `params` page by page and returns one result holding every page's
    /// items and problems, as an unpaged `list` would.
    public func listAll(_ params: JSONObject, pageSize: Int = 10_000) throws(JarvisError) -> JSONValue {
        var items: [JSONValue] = []
        var problems: [JSONValue] = []
        var cursor: String?
        var request = params
        request["limit"] = .number(JSONNumber(pageSize))
        repeat {
            if let cursor { request["cursor"] = .string(cursor) }
            let page = try call("list", request)
            items += page["items"]?.arrayValue ?? []
            problems += page["problems"]?.arrayValue ?? []
            cursor = page["nextCursor"]?.stringValue
        } while cursor != nil
        return .object(["items": .array(items), "problems": .array(problems)])
    }

    /// One item.
    public func get(_ address: PreferenceAddress, reveal: Bool = false) throws(JarvisError) -> PreferenceItem {
        var params = Self.params(address)
        if reveal { params["reveal"] = true }
        return try WireItem.decode(try call("get", params)["item"] ?? .null)
    }

    /// Stores a value; with `expectedRevision`, only if nobody changed it since.
    @discardableResult
    public func set(_ address: PreferenceAddress, to value: PreferenceValue, expectedRevision: Revision? = nil)
        throws(JarvisError) -> PreferenceItem
    {
        var params = Self.params(address)
        params["type"] = .string(value.type.rawValue)
        params["value"] = value.json
        if let expectedRevision { params["expectedRevision"] = .string(expectedRevision.text) }
        return try WireItem.decode(try call("set", params)["item"] ?? .null)
    }

    /// Removes a stored value; returns it as it was.
    @discardableResult
    public func delete(_ address: PreferenceAddress, expectedRevision: Revision? = nil) throws(JarvisError)
        -> PreferenceItem
    {
        var params = Self.params(address)
        if let expectedRevision { params["expectedRevision"] = .string(expectedRevision.text) }
        return try WireItem.decode(try call("delete", params)["item"] ?? .null)
    }

    private static func params(_ address: PreferenceAddress) -> JSONObject {
        ["scanner": .string(address.scanner), "container": .string(address.container), "key": .string(address.key)]
    }
}
