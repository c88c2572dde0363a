import Foundation
import JarvisCore
import JarvisTransport

/// A Unix socket that accepts every connection and never answers. As a D-Bus session bus
/// (`DBUS_SESSION_BUS_ADDRESS` set to ``busAddress``), every Secret Service call waits on it
/// for ever, as on a hung desktop keyring (libsecret's `secret_service_get_sync` never returns).
package final class SilentListener: Sendable {
    /// The socket's path.
    package let path: String
    private let listener: Socket
    /// The connections accepted so far, held open and never read.
    private let held = Locked<[Socket]>([])
    private let stopped = Locked(false)

    /// Listens at `path` and accepts on a thread of its own until ``stop()``.
    package init(path: String) throws {
        self.path = path
        listener = try Socket.listen(on: .unix(path: path))
        let (listener, held, stopped) = (listener, held, stopped)
        Thread.detachNewThread {
            while !stopped.current {
                guard (try? listener.wait(for: Int16(POLLIN), until: .now + .milliseconds(100))) == true,
                    let (socket, _) = try? listener.accept()
                else { continue }
                held.withLock { $0.append(socket) }
            }
        }
    }

    deinit { stop() }

    /// The address for `DBUS_SESSION_BUS_ADDRESS`.
    package var busAddress: String { "unix:path=\(path)" }

    /// How many connections were accepted.
    package var accepted: Int { held.current.count }

    /// Stops accepting and closes every connection. Idempotent.
    package func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        listener.close()
        for socket in held.current { socket.close() }
        unlink(path)
    }
}
