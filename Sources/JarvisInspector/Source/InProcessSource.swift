import Foundation
import JarvisCore
import JarvisRemote

/// The agent inside this app: no socket and no token, under exactly the rules a client on the
/// wire meets.
///
/// Requests go through the agent's own request handler, so the privacy configuration, the
/// two consents for a reveal, the production lock and the audit trail apply as they do to
/// `jarvis` (the audit names the client `transport: in-process`). Calls run on the caller's
/// thread and may touch storage; ``InspectorSession``'s `async` methods run them off the
/// main actor.
public final class InProcessSource: InspectorSource {
    private let service: AgentService
    private let session: AgentSessionState
    private let ids = Locked<Int64>(1)
    /// What the agent would answer to `hello`.
    public let hello: Wire.HelloResult

    /// Inspects a running agent of this process.
    /// - Parameter clientName: how the agent's audit trail names the panel.
    public convenience init(agent: JarvisAgent, clientName: String = "JarvisUI") {
        self.init(service: agent.service, clientName: clientName)
    }

    /// Inspects a hub that serves no socket at all (a panel without an agent).
    /// - Parameters:
    ///   - hub: the hub with its scanners registered.
    ///   - name: the name shown as the agent's.
    ///   - clientName: how the audit trail names the panel.
    public convenience init(hub: JarvisHub, name: String? = nil, clientName: String = "JarvisUI") {
        let identity = AgentIdentity(name: name ?? ProcessInfo.processInfo.processName)
        self.init(service: AgentService(hub: hub, identity: identity, maxLineLength: 1 << 20), clientName: clientName)
    }

    init(service: AgentService, clientName: String) {
        self.service = service
        session = AgentSessionState(transport: .inProcess, peer: "pid \(service.identity.pid)")
        var answer: Wire.HelloResult?
        let request = RPCRequest(
            id: .integer(0), method: Wire.HelloParams.method, params: Wire.HelloParams(client: clientName).json)
        if let json = try? service.handle(request, session: session) { answer = try? Wire.HelloResult(json: json) }
        // The in-process hello cannot fail (no token, same version); keep a truthful fallback.
        hello =
            answer
            ?? Wire.HelloResult(
                agent: service.identity.name, pid: Int64(service.identity.pid), platform: service.identity.platform,
                capabilities: Wire.Capabilities(
                    editing: false, reveal: false, production: true, maxLineLength: 0, tcp: false, auth: .none),
                scanners: [])
    }

    /// Runs one request through the agent's handler.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type) throws(JarvisError) -> R {
        let id = ids.withLock { id -> Int64 in
            defer { id += 1 }
            return id
        }
        let request = RPCRequest(id: .integer(id), method: P.method, params: params.json)
        let answer: JSONValue
        do throws(RPCError) {
            answer = try service.handle(request, session: session)
        } catch {
            throw error.jarvisError
        }
        // Held change lines are released once a reply is out, as on a socket.
        session.watch.replied()
        return try R(json: answer)
    }

    /// Subscribes through the agent's change engine; notifications arrive on its thread.
    public func watch(_ params: Wire.WatchParams, events: @escaping @Sendable (InspectorFeedEvent) -> Void)
        throws(JarvisError) -> any InspectorFeed
    {
        session.watch.attach { line in
            guard case .notification(let method, let params)? = try? RPCResponse.decode(line),
                method == ChangeNotification.method, let change = try? ChangeNotification(params: params)
            else { return }
            events(.changed(change))
        }
        let result = try call(params, expecting: Wire.WatchResult.self)
        return InProcessFeed(session: session, subscription: result.id)
    }

    /// Nothing to close in process; ends this inspector's subscriptions.
    public func close() { session.watch.end() }
}

/// A subscription of an in-process inspector.
final class InProcessFeed: InspectorFeed {
    private let session: AgentSessionState
    private let subscription: String

    init(session: AgentSessionState, subscription: String) {
        self.session = session
        self.subscription = subscription
    }

    func stop() { _ = session.watch.remove(subscription) }
}
