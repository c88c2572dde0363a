import Foundation
import JarvisCore
import JarvisRemote

/// Live updates for the inspector: a second connection that subscribes with `watch` and a
/// background thread that blocks reading its `changed` notifications.
///
/// The thread queues what it reads and writes a byte to a pipe the inspector's main loop
/// polls beside the keyboard, so an idle inspector sleeps in `poll` and wakes only for a key,
/// a resize or a change. A separate connection keeps the blocked reader from holding up the
/// inspector's own calls.
final class WatchFeed: Sendable {
    /// What the reader thread saw.
    enum Event: Sendable {
        /// The `params` of one `changed` notification.
        case changed(ChangeNotification)
        /// The subscription ended (the agent went away); the message says why.
        case ended(String)
    }

    /// Whether the agent offers live updates, and the feed when it does.
    enum Start {
        case live(WatchFeed)
        /// The agent has no `watch` method (an older agent); the message says so.
        case unsupported(String)
    }

    /// Readable when events wait in `take()`.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let client: JarvisClient
    private let events = Locked<[Event]>([])

    private init(client: JarvisClient, wake: (Int32, Int32)) {
        self.client = client
        wakeRead = wake.0
        wakeWrite = wake.1
    }

    /// Opens the watch connection and subscribes to every visible item.
    /// - Throws: ``JarvisError`` when the agent cannot be reached or refuses for another reason.
    static func start(endpoint: Endpoint, token: String?) throws(JarvisError) -> Start {
        let client = try JarvisClient(endpoint: endpoint, clientName: "jarvis-inspect-watch", token: token)
        do {
            _ = try client.watch()
        } catch let error where error.code.rawValue == "methodNotFound" {
            client.close()
            return .unsupported("this agent has no live updates (no `watch` method); press Ctrl-L to reload")
        } catch {
            client.close()
            throw error
        }
        guard let wake = TerminalShim.pipe() else {
            client.close()
            throw JarvisError(
                .unavailable, "cannot create a pipe for live updates; the process may be out of file descriptors")
        }
        let feed = WatchFeed(client: client, wake: wake)
        let thread = Thread { feed.readLoop() }
        thread.name = "jarvis-inspect-watch"
        thread.start()
        return .live(feed)
    }

    /// The events read so far, oldest first; empties the queue and the wake pipe.
    func take() -> [Event] {
        var scratch = [UInt8](repeating: 0, count: 64)
        while scratch.withUnsafeMutableBytes({ TerminalShim.read(wakeRead, $0.baseAddress, 64) }) > 0 {}
        return events.withLock { queued in
            defer { queued = [] }
            return queued
        }
    }

    /// Ends the subscription; the reader thread sees the connection close and stops.
    func stop() {
        client.close()
    }

    private func readLoop() {
        while true {
            do {
                // Without a timeout, nil means the connection failed below the JSON layer.
                guard let notification = try client.nextChange(timeout: nil) else {
                    post(.ended("live updates stopped: the connection to the agent failed"))
                    return
                }
                post(.changed(notification))
            } catch {
                post(.ended("live updates stopped: \(error.message)"))
                return
            }
        }
    }

    private func post(_ event: Event) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = TerminalShim.write(wakeWrite, &byte, 1)
    }
}
