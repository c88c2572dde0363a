import Foundation
import JarvisCore

/// A connection to an agent, for the `jarvis` CLI and for a host's own tests.
///
/// Calls are synchronous and one at a time (a lock orders them); notifications that arrive
/// between answers are kept for ``nextNotification(timeout:)``. Each agent method has a typed
/// method built on the wire schema (``Wire``); code written with Swift concurrency uses
/// ``AsyncJarvisClient``, which never blocks a thread of the cooperative pool.
public final class JarvisClient: Sendable {
    /// What the agent said in `hello`, as sent.
    public let hello: JSONObject
    /// What the agent said in `hello`: who it is, what it allows, which scanners it serves.
    public let helloResult: Wire.HelloResult
    private let connection: LineClient
    private let state: Locked<State>
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
        let state = Locked(State())
        self.state = state
        let params = Wire.HelloParams(client: clientName, token: token)
        do throws(JarvisError) {
            let answer = try Self.exchange(
                connection, state: state, timeout: timeout, params.json, method: Wire.HelloParams.method)
            guard case .object(let object) = answer else {
                throw JarvisError(.storage, "the agent answered hello with something other than an object")
            }
            try ProtocolVersion.checkAgent(object["protocolVersion"]?.stringValue)
            helloResult = try Wire.HelloResult(json: answer)
            hello = object
        } catch {
            connection.close()
            throw error
        }
    }

    private let timeout: Duration

    /// Sends one request and waits for its answer.
    /// - Throws: ``JarvisError`` carrying the agent's error code and message.
    public func call(_ method: String, _ params: JSONObject = [:]) throws(JarvisError) -> JSONValue {
        try callLock.withLock { (_: inout Void) throws(JarvisError) -> JSONValue in
            try Self.exchange(connection, state: state, timeout: timeout, params, method: method)
        }
    }

    /// Sends one request with typed params and reads its typed answer.
    /// - Throws: ``JarvisError`` carrying the agent's error code and message, or `.storage`
    ///   when the answer does not have the shape of `R`.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type = R.self) throws(JarvisError) -> R {
        try R(json: try call(P.method, params.json))
    }

    private static func exchange(
        _ connection: LineClient, state: Locked<State>, timeout: Duration, _ params: JSONObject, method: String
    ) throws(JarvisError) -> JSONValue {
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
