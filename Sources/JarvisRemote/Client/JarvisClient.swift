import Foundation
import JarvisCore
import JarvisTransport

/// A connection to an agent, for the `jarvis` CLI and for a host's own tests.
///
/// Calls are synchronous and one at a time (a lock orders them, as the protocol wants one
/// request on the wire at a time). Notifications are kept for ``nextNotification(timeout:)``,
/// which waits apart from calls: a thread waiting for a change never holds up a `call` from
/// another thread on the same client, and whichever of them reads the socket files what it
/// read for the other. Each agent method has a typed method built on the wire schema
/// (``Wire``); code written with Swift concurrency uses ``AsyncJarvisClient``, which never
/// blocks a thread of the cooperative pool.
public final class JarvisClient: Sendable {
    /// What the agent said in `hello`, as sent.
    public let hello: JSONObject
    /// What the agent said in `hello`: who it is, what it allows, which scanners it serves.
    public let helloResult: Wire.HelloResult
    private let connection: LineClient
    private let inbox = ClientInbox()
    private let nextID = Locked<Int64>(1)
    private let callLock = Locked<Void>(())

    /// Connects and says hello.
    /// - Parameters:
    ///   - endpoint: where the agent listens.
    ///   - clientName: how the agent's audit trail will name this client.
    ///   - token: the agent's token, needed on TCP (ignored by agents on a Unix socket).
    ///   - timeout: how long to wait for the connection, for `hello` and for each answer; nil
    ///     (the default) waits ``defaultTimeout`` for the connection and `hello`, and for each
    ///     answer as long as the agent says a request may wait on its storage
    ///     (``Wire/Capabilities/requestTimeout``) and ``answerMargin``, so its own error
    ///     naming what did not answer (a hung keyring) arrives instead of this client giving
    ///     up first with no reason and dropping the connection.
    /// - Throws: ``JarvisError`` when the agent cannot be reached, refuses the hello (wrong
    ///   token: `.unauthorized`), or speaks another major protocol version.
    public convenience init(
        endpoint: Endpoint, clientName: String = "jarvis", token: String? = nil, timeout: Duration? = nil
    ) throws(JarvisError) {
        let connection: LineClient
        do {
            connection = try LineClient(endpoint: endpoint, timeout: timeout ?? Self.defaultTimeout)
        } catch {
            throw JarvisError(.unavailable, "cannot connect to the agent: \(error)")
        }
        try self.init(connection: connection, clientName: clientName, token: token, timeout: timeout)
    }

    /// Says hello over a connection already open (a tunnel to an agent on a device, through
    /// usbmuxd); the client owns it from now on, and closes it if the hello fails.
    /// - Throws: ``JarvisError`` as ``init(endpoint:clientName:token:timeout:)``.
    package init(connection: LineClient, clientName: String, token: String?, timeout: Duration?) throws(JarvisError) {
        let first = timeout ?? Self.defaultTimeout
        self.connection = connection
        let params = Wire.HelloParams(client: clientName, token: token)
        do throws(JarvisError) {
            let answer = try Self.exchange(
                connection, inbox: inbox, nextID: nextID, timeout: first, params.json,
                method: Wire.HelloParams.method)
            guard case .object(let object) = answer else {
                throw JarvisError(.storage, "the agent answered hello with something other than an object")
            }
            try ProtocolVersion.checkAgent(object["protocolVersion"]?.stringValue)
            helloResult = try Wire.HelloResult(json: answer)
            hello = object
            self.timeout = timeout ?? Self.answerWait(agentTimeout: helloResult.capabilities.requestTimeout)
        } catch {
            connection.close()
            throw error
        }
    }

    /// How long each answer is waited for.
    private let timeout: Duration

    /// What a client waits beyond the agent's own request timeout: the agent's clock starts
    /// when it reads the request, and a loaded machine takes a moment to answer.
    public static let answerMargin: Duration = .seconds(3)

    /// How long a client that names no timeout waits for the connection and `hello`, and for
    /// each answer of an agent that does not say its request timeout.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The wait for each answer when the caller named none: the agent's own request timeout
    /// and ``answerMargin``, or ``defaultTimeout`` from an agent that does not say.
    static func answerWait(agentTimeout: Duration?) -> Duration {
        agentTimeout.map { $0 + answerMargin } ?? defaultTimeout
    }

    /// The socket's descriptor, for a readiness source that waits without a thread
    /// (``ChangeStream``). Valid until the client is released.
    var descriptor: Int32 { connection.descriptor }

    /// Sends one request and waits for its answer.
    /// - Throws: ``JarvisError`` carrying the agent's error code and message.
    public func call(_ method: String, _ params: JSONObject = [:]) throws(JarvisError) -> JSONValue {
        try callLock.withLock { (_: inout Void) throws(JarvisError) -> JSONValue in
            try Self.exchange(connection, inbox: inbox, nextID: nextID, timeout: timeout, params, method: method)
        }
    }

    /// Sends one request with typed params and reads its typed answer.
    /// - Throws: ``JarvisError`` carrying the agent's error code and message, or `.storage`
    ///   when the answer does not have the shape of `R`.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type = R.self) throws(JarvisError) -> R {
        try R(json: try call(P.method, params.json))
    }

    private static func exchange(
        _ connection: LineClient, inbox: ClientInbox, nextID: Locked<Int64>, timeout: Duration, _ params: JSONObject,
        method: String
    ) throws(JarvisError) -> JSONValue {
        let number = nextID.withLock { next -> Int64 in
            defer { next += 1 }
            return next
        }
        let id = JSONValue.number(JSONNumber(number))
        let request = RPCRequest(id: id, method: method, params: params)
        do {
            try connection.send(request.line)
        } catch {
            throw JarvisError(.unavailable, "the connection to the agent is closed: \(error)")
        }
        let outcome = try inbox.wait(
            until: .now + timeout,
            take: { contents in
                // An error the agent could not tie to a request (a line it could not read)
                // belongs to the request on the wire: calls go one at a time.
                contents.answers.removeValue(forKey: id) ?? contents.answers.removeValue(forKey: .null)
            },
            read: { deadline throws(JarvisError) in try read(connection, until: deadline) })
        switch outcome {
        case .found(let answer):
            return try answer.get()
        case .timedOut:
            throw JarvisError(
                .unavailable, "lost the connection to the agent: no reply in time to '\(method)'; is the agent busy?")
        }
    }

    /// Reads one line and decodes it; a timeout is `.timedOut`, end of file or a broken socket
    /// is an `.unavailable` failure of the whole connection.
    private static func read(_ connection: LineClient, until deadline: ContinuousClock.Instant?)
        throws(JarvisError) -> ClientInbox.ReadOutcome
    {
        let line: [UInt8]?
        do {
            line = try connection.receiveLine(timeout: deadline.map { max(.zero, $0 - .now) })
        } catch  where error.errno == ETIMEDOUT {
            return .timedOut
        } catch {
            throw JarvisError(.unavailable, "lost the connection to the agent: \(error)")
        }
        guard let line else {
            throw JarvisError(.unavailable, "the agent closed the connection")
        }
        return .line(try RPCResponse.decode(line))
    }

    /// The next notification the agent pushed (such as `changed`), waiting up to `timeout`
    /// (nil: for ever; `.zero`: only what has already arrived); nil when none came in time.
    ///
    /// Waiting here does not hold up ``call(_:_:)`` on other threads.
    /// - Throws: ``JarvisError`` `.unavailable` when the agent closed the connection or the
    ///   socket failed (never a silent nil), `.storage` for a line that is not JSON-RPC.
    public func nextNotification(timeout: Duration?) throws(JarvisError) -> (method: String, params: JSONObject)? {
        let outcome = try inbox.wait(
            until: timeout.map { .now + $0 },
            take: { contents in contents.notifications.isEmpty ? nil : contents.notifications.removeFirst() },
            read: { [connection] deadline throws(JarvisError) in try Self.read(connection, until: deadline) })
        switch outcome {
        case .found(let notification): return notification
        case .timedOut: return nil
        }
    }

    /// Closes the connection; a thread waiting for an answer or a notification wakes up with
    /// `.unavailable`.
    public func close() {
        connection.close()
        inbox.fail(JarvisError(.unavailable, "the connection to the agent was closed"))
    }
}
