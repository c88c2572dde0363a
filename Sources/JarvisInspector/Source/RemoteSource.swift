import Foundation
import JarvisCore
import JarvisRemote

/// An agent across a socket: another process, a Simulator app, a phone over TCP.
///
/// Calls go over a connection that is free: the first one (``client``) while it is, else
/// another, opened when needed and kept for the next call (up to ``idleLimit`` idle), so a
/// call that waits on slow storage (a hung keyring) never holds up a call made meanwhile from
/// another thread (another page of `jarvis web` on the same listing); the agent answers each
/// connection's requests in order. Live updates go over a connection of their own, read by a
/// thread of their own, so a waiting reader never holds up a call.
public final class RemoteSource: InspectorSource {
    /// The first connection used for calls.
    public let client: JarvisClient
    private let endpoint: Endpoint
    private let token: String?
    private let clientName: String
    /// The call connections no call uses now; a call takes one, or opens one when none is.
    private let idle: Locked<[JarvisClient]>
    /// Set by ``close()``: a call that ends later closes its connection instead of keeping it.
    private let closed = Locked(false)
    /// The most idle call connections kept open for later calls.
    static let idleLimit = 4

    /// Connects to the agent at `endpoint`.
    /// - Parameters:
    ///   - endpoint: where the agent listens.
    ///   - token: the TCP token; nil on a Unix socket.
    ///   - clientName: how the agent's audit trail names this inspector.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses the hello.
    public init(endpoint: Endpoint, token: String? = nil, clientName: String = "jarvis-inspector") throws(JarvisError) {
        client = try JarvisClient(endpoint: endpoint, clientName: clientName, token: token)
        idle = Locked([client])
        self.endpoint = endpoint
        self.token = token
        self.clientName = clientName
    }

    /// What the agent said in `hello`.
    public var hello: Wire.HelloResult { client.helloResult }

    /// Sends one request over a call connection no other call uses now.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type) throws(JarvisError) -> R {
        let connection = try takeConnection()
        do {
            let answer = try connection.call(params, expecting: expecting)
            giveBack(connection, usable: true)
            return answer
        } catch {
            // Storage that did not answer in time may leave the request running on this
            // connection, where the agent would queue the next one behind it: not kept.
            giveBack(connection, usable: error.code != .unavailable)
            throw error
        }
    }

    /// A call connection no other call uses: an idle one, or a new one.
    private func takeConnection() throws(JarvisError) -> JarvisClient {
        if let free = idle.withLock({ $0.popLast() }) { return free }
        return try JarvisClient(endpoint: endpoint, clientName: clientName, token: token)
    }

    /// Keeps `connection` for the next call, or closes it (unusable, the source closed, or
    /// enough kept already).
    private func giveBack(_ connection: JarvisClient, usable: Bool) {
        let kept =
            usable
            && idle.withLock { idle -> Bool in
                guard !closed.current, idle.count < Self.idleLimit else { return false }
                idle.append(connection)
                return true
            }
        if !kept { connection.close() }
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

    /// Closes the call connections (one in use closes when its call ends).
    public func close() {
        closed.withLock { $0 = true }
        for connection in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) { connection.close() }
        client.close()
    }
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
