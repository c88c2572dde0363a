/// How a scanner whose values live in memory tells the agent that they changed.
///
/// The scanner keeps one signal, returns it from ``PreferenceScanner/watchTargets()`` as
/// ``WatchTarget/signal(_:)``, and calls ``send(container:)`` whenever the host changes a
/// value. Sending is cheap and does nothing while no client watches.
///
/// ```swift
/// let changes = ChangeSignal()
/// func watchTargets() -> [WatchTarget] { [.signal(changes)] }
/// func hostDidChange(_ container: String) { changes.send(container: container) }
/// ```
public final class ChangeSignal: Sendable, Hashable {
    private let observers = ObserverList<String?>()

    /// Creates a signal.
    public init() {}

    /// Reports that values of `container` may have changed (nil: any container). Thread-safe,
    /// never blocks on the agent's work.
    public func send(container: String?) {
        observers.notify(container)
    }

    /// Starts calling `handler` on every send; returns the token for ``stopObserving(_:)``.
    package func observe(_ handler: @escaping @Sendable (String?) -> Void) -> UInt64 {
        observers.add(handler)
    }

    /// Stops a handler added with ``observe(_:)``.
    package func stopObserving(_ token: UInt64) {
        observers.remove(token)
    }

    /// Signals are equal only to themselves.
    public static func == (lhs: ChangeSignal, rhs: ChangeSignal) -> Bool { lhs === rhs }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
