import Foundation
import JarvisCore
import JarvisTransport

/// A Unix socket that accepts every connection and never answers. As a D-Bus session bus
/// (`DBUS_SESSION_BUS_ADDRESS` set to ``busAddress``), every Secret Service call waits on it
/// for ever, as on a hung desktop keyring (libsecret's `secret_service_get_sync` never returns).
package final class SilentListener: Sendable {
    /// The socket's path.
    package let path: String
    private let loop: AcceptLoop

    /// Listens at `path` and accepts on a thread of its own until ``stop()``.
    package init(path: String) throws {
        self.path = path
        // Each connection is held open by the loop and never read.
        loop = AcceptLoop(try Socket.listen(on: .unix(path: path))) { _ in }
    }

    deinit { stop() }

    /// The address for `DBUS_SESSION_BUS_ADDRESS`.
    package var busAddress: String { "unix:path=\(path)" }

    /// How many connections were accepted.
    package var accepted: Int { loop.accepted }

    /// Stops accepting and ends every connection. Idempotent.
    package func stop() {
        if loop.stop() { unlink(path) }
    }
}
