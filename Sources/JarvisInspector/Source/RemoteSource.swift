import Foundation
import JarvisCore
import JarvisRemote

/// An agent across a socket: another process, a Simulator app, a phone over TCP.
///
/// Calls go over one connection; live updates over a second one, read by a thread of their
/// own, so a waiting reader never holds up a call.
public final class RemoteSource: InspectorSource {
    /// The connection used for calls.
    public let client: JarvisClient
    private let endpoint: Endpoint
    private let token: String?
    private let clientName: String

    /// Connects to the agent at `endpoint`.
    /// - Parameters:
    ///   - endpoint: where the agent listens.
    ///   - token: the TCP token; nil on a Unix socket.
    ///   - clientName: how the agent's audit trail names this inspector.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses the hello.
    public init(endpoint: Endpoint, token: String? = nil, clientName: String = "jarvis-inspector") throws(JarvisError) {
        client = try JarvisClient(endpoint: endpoint, clientName: clientName, token: token)
        self.endpoint = endpoint
        self.token = token
        self.clientName = clientName
    }

    /// What the agent said in `hello`.
    public var hello: Wire.HelloResult { client.helloResult }

    /// Sends one request over the call connection.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type) throws(JarvisError) -> R {
        try client.call(params, expecting: expecting)
    }

    /// Opens the watch connection and reads it on a thread of its own.
    public func watch(_ params: Wire.WatchParams, events: @escaping @Sendable (InspectorFeedEvent) -> Void)
        throws(JarvisError) -> any InspectorFeed
    {
        let watcher = try JarvisClient(endpoint: endpoint, clientName: clientName + "-watch", token: token)
        do {
            _ = try watcher.watch(params)
        } catch {
            watcher.close()
            throw error
        }
        let feed = RemoteFeed(client: watcher)
        let thread = Thread { feed.read(events) }
        thread.name = "jarvis-inspector-watch"
        thread.start()
        return feed
    }

    /// Closes the call connection.
    public func close() { client.close() }
}

/// The reading side of a remote subscription.
final class RemoteFeed: InspectorFeed {
    private let client: JarvisClient
    private let stopped = Locked(false)

    init(client: JarvisClient) { self.client = client }

    func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { client.close() }
    }

    /// Reads notifications until the connection ends; waking twice a second to notice `stop()`.
    func read(_ events: @Sendable (InspectorFeedEvent) -> Void) {
        while !stopped.current {
            do {
                if let change = try client.nextChange(timeout: .milliseconds(500)) { events(.changed(change)) }
            } catch {
                if !stopped.current { events(.ended("live updates stopped: \(error.message)")) }
                stop()
                return
            }
        }
    }
}
