import Foundation
import JarvisCore
import JarvisTransport

/// A D-Bus session bus that accepts every connection and never answers, as a hung desktop
/// keyring's bus does: a Secret Service call through it waits forever (libsecret's
/// `secret_service_get_sync` never returns). Point `DBUS_SESSION_BUS_ADDRESS` at ``address``.
final class SilentBus: Sendable {
    let path: String
    private let listener: Socket
    /// The connections accepted so far, held open and never read.
    private let held = Locked<[Socket]>([])
    private let stopped = Locked(false)

    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    var address: String { "unix:path=\(path)" }

    /// How many connections the bus accepted.
    var accepted: Int { held.current.count }

    init(path: String) throws {
        self.path = path
        listener = try Socket.listen(on: .unix(path: path))
        let listener = listener
        let held = held
        let stopped = stopped
        Thread.detachNewThread {
            while !stopped.current {
                guard (try? listener.wait(for: Int16(POLLIN), until: .now + .milliseconds(100))) == true,
                    let (socket, _) = try? listener.accept()
                else { continue }
                held.withLock { $0.append(socket) }
            }
        }
    }

    deinit {
        stopped.withLock { $0 = true }
        listener.close()
        for socket in held.current { socket.close() }
        unlink(path)
    }
}
