import Dispatch
import JarvisCore
import JarvisTransport

/// The async face of ``JarvisClient``, for hosts and tools written with Swift concurrency.
///
/// Every call runs the blocking client on this client's own serial dispatch queue and
/// resumes the caller when the answer is in, so no thread of the cooperative pool ever waits
/// on the socket. Calls from several tasks at once are queued and answered in order, one
/// request on the wire at a time, as the protocol requires. A call cannot be abandoned half
/// way (the answer would then belong to nobody); it ends with the answer, an error, or the
/// client's timeout.
///
/// ``changes(_:)`` opens a second connection for its subscription, so a long watch never
/// holds up calls, and ends it when the sequence's task is cancelled or the sequence is
/// dropped.
public final class AsyncJarvisClient: Sendable {
    /// The blocking client underneath, for code that mixes both.
    public let client: JarvisClient
    private let endpoint: Endpoint
    private let clientName: String
    private let token: String?
    private let timeout: Duration?
    private let queue: DispatchQueue

    private init(
        client: JarvisClient, endpoint: Endpoint, clientName: String, token: String?, timeout: Duration?,
        queue: DispatchQueue
    ) {
        self.client = client
        self.endpoint = endpoint
        self.clientName = clientName
        self.token = token
        self.timeout = timeout
        self.queue = queue
    }

    /// Connects and says hello, off the cooperative pool.
    /// - Parameters: as for ``JarvisClient/init(endpoint:clientName:token:timeout:)``.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses the hello.
    public static func connect(
        to endpoint: Endpoint, clientName: String = "jarvis", token: String? = nil, timeout: Duration? = nil
    ) async throws(JarvisError) -> AsyncJarvisClient {
        let queue = DispatchQueue(label: "jarvis.client")
        let client = try await perform(on: queue) { () throws(JarvisError) in
            try JarvisClient(endpoint: endpoint, clientName: clientName, token: token, timeout: timeout)
        }
        return AsyncJarvisClient(
            client: client, endpoint: endpoint, clientName: clientName, token: token, timeout: timeout, queue: queue)
    }

    /// What the agent said in `hello`.
    public var helloResult: Wire.HelloResult { client.helloResult }

    /// Runs `body` with the blocking client on this client's queue and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable (JarvisClient) throws(JarvisError) -> T)
        async throws(JarvisError) -> T
    {
        let client = self.client
        return try await Self.perform(on: queue) { () throws(JarvisError) in try body(client) }
    }

    /// Sends one request and waits for its answer.
    public func call(_ method: String, _ params: JSONObject = [:]) async throws(JarvisError) -> JSONValue {
        try await run { client throws(JarvisError) in try client.call(method, params) }
    }

    /// Sends one request with typed params and reads its typed answer.
    public func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type = R.self)
        async throws(JarvisError) -> R
    {
        try await run { client throws(JarvisError) in try client.call(params, expecting: R.self) }
    }

    /// Subscribes to changes on a connection of its own and returns them as an async sequence.
    ///
    /// The subscription starts before this returns (``ChangeStream/subscription`` has the
    /// agent's answer), so no change made after it is missed. Notifications are read only as
    /// the sequence is iterated: a consumer that stops reading is eventually disconnected by
    /// the agent, as any slow reader is. Cancelling the iterating task, or dropping the
    /// sequence, closes the connection, which ends the subscription on the agent.
    /// - Throws: ``JarvisError`` when the connection or the `watch` fails.
    public func changes(_ params: Wire.WatchParams = Wire.WatchParams()) async throws(JarvisError) -> ChangeStream {
        let (endpoint, clientName, token, timeout) = (self.endpoint, self.clientName, self.token, self.timeout)
        // The stream's queue only runs short reads of what has arrived (waiting is a read
        // source, not a thread), so it shares the width-limited global pool instead of asking
        // for a thread of its own.
        let queue = DispatchQueue(label: "jarvis.watch", target: .global())
        let (watcher, subscription) = try await Self.perform(on: queue) {
            () throws(JarvisError) -> (JarvisClient, Wire.WatchResult) in
            let watcher = try JarvisClient(endpoint: endpoint, clientName: clientName, token: token, timeout: timeout)
            do throws(JarvisError) {
                return (watcher, try watcher.watch(params))
            } catch {
                watcher.close()
                throw error
            }
        }
        return ChangeStream(subscription: subscription, connection: ChangeStream.Connection(watcher, queue: queue))
    }

    /// Closes the connection; calls after this fail with `.unavailable`.
    public func close() {
        client.close()
    }

    /// Runs a blocking `body` on `queue` and suspends the caller, not a thread, until it ends.
    static func perform<T: Sendable>(
        on queue: DispatchQueue, _ body: @escaping @Sendable () throws(JarvisError) -> T
    ) async throws(JarvisError) -> T {
        let result: Result<T, JarvisError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(JarvisError) in try body() })
            }
        }
        return try result.get()
    }
}
