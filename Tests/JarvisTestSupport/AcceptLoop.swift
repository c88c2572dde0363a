import Foundation
import JarvisCore
import JarvisTransport

/// A listening socket served on a thread of its own: each connection it accepts is made
/// blocking and handed to `serve` on a new thread, and held until ``stop()`` ends it.
package final class AcceptLoop: Sendable {
    private let listener: Socket
    private let stopped = Locked(false)
    private let open = Locked<[Socket]>([])

    /// Starts accepting on `listener` (which the loop now owns).
    package init(_ listener: Socket, serve: @escaping @Sendable (Socket) -> Void) {
        self.listener = listener
        let (stopped, open) = (stopped, open)
        Thread.detachNewThread {
            while !stopped.current {
                guard (try? listener.wait(for: Int16(POLLIN), until: .now + .milliseconds(100))) == true,
                    let (socket, _) = try? listener.accept()
                else { continue }
                try? socket.setNonBlocking(false)
                open.withLock { $0.append(socket) }
                Thread.detachNewThread { serve(socket) }
            }
            // Closed here, by the only thread that accepts on it: closed by `stop()` while this
            // thread waited, the number could go to another test's new listener, whose
            // connections this thread would then accept and serve as this loop's.
            listener.close()
        }
    }

    deinit { stop() }

    /// How many connections were accepted.
    package var accepted: Int { open.current.count }

    /// Stops accepting and shuts every connection down (a thread blocked reading one wakes).
    ///
    /// - Returns: true for the call that stopped the loop, false for any later one.
    @discardableResult
    package func stop() -> Bool {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return false }
        // Wakes the accepting thread, which closes the listener as it ends.
        listener.shutdown()
        for socket in open.current { socket.shutdown() }
        return true
    }
}
