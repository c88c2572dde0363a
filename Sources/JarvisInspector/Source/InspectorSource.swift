import JarvisCore
import JarvisRemote

/// Where an inspector reads and writes: an agent in the same process or one across a socket.
///
/// Two implementations ship: ``InProcessSource`` (the hub inside the app, no socket and no
/// token, under the same rules, audit and production lock as a client on the wire) and
/// ``RemoteSource`` (a ``JarvisClient``). Both speak the typed wire schema (``Wire``), so the
/// model above them has one code path.
///
/// Rules for implementers:
/// - ``call(_:expecting:)`` may block on I/O; callers that must not block (a UI on the main
///   actor) use ``InspectorSession``'s `async` methods, which run it on a background queue.
/// - ``watch(_:events:)`` delivers events on a thread of its own, in order, and delivers
///   ``InspectorFeedEvent/ended(_:)`` at most once.
public protocol InspectorSource: Sendable {
    /// What the agent said in `hello`: who it is and what it allows.
    var hello: Wire.HelloResult { get }

    /// Sends one request and returns its typed answer.
    /// - Throws: ``JarvisError`` with the agent's code and message.
    func call<P: WireParams, R: WireMessage>(_ params: P, expecting: R.Type) throws(JarvisError) -> R

    /// Subscribes to changes; `events` hears each `changed` notification until the feed stops.
    /// - Throws: ``JarvisError`` when the agent refuses the subscription.
    func watch(_ params: Wire.WatchParams, events: @escaping @Sendable (InspectorFeedEvent) -> Void)
        throws(JarvisError) -> any InspectorFeed

    /// Ends the connection (a no-op in process).
    func close()
}

/// What a live feed reports.
public enum InspectorFeedEvent: Sendable {
    /// One `changed` notification.
    case changed(ChangeNotification)
    /// The feed ended (the agent went away); the message says why.
    case ended(String)
}

/// A running subscription; ``stop()`` ends it.
public protocol InspectorFeed: Sendable {
    /// Ends the subscription. Idempotent.
    func stop()
}
