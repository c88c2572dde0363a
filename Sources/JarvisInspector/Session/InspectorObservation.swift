import JarvisCore

/// A handler added with ``InspectorSession/observe(_:)``: told of changes until
/// ``cancel()`` or until this is released.
public final class InspectorObservation: Sendable {
    private let end: Locked<(@Sendable () -> Void)?>

    init(_ end: @escaping @Sendable () -> Void) { self.end = Locked(end) }

    /// Stops telling the handler; later calls do nothing.
    public func cancel() {
        let end = self.end.withLock { end -> (@Sendable () -> Void)? in
            defer { end = nil }
            return end
        }
        end?()
    }

    deinit { cancel() }
}
