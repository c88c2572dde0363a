import JarvisTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a conversation with usbmuxd (the daemon that reaches phones and iPads over USB and
/// Wi-Fi) failed, worded so a person knows what to do.
///
/// A struct with an extensible ``Code``, so new kinds never break a caller's `switch`. Every
/// failure of the usbmuxd client is one of these: a missing daemon, an answer cut short, too
/// long, damaged or late, or a request the daemon refused (``result`` names its code).
package struct UsbmuxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's name.
        package var rawValue: String
        /// A code by name.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// usbmuxd is not running here: its socket is missing or nobody listens on it.
        package static let notRunning = Code(rawValue: "notRunning")
        /// `USBMUXD_SOCKET_ADDRESS` is neither `UNIX:/path` nor `HOST:PORT`.
        package static let badAddress = Code(rawValue: "badAddress")
        /// The daemon closed the connection before its answer was whole.
        package static let closed = Code(rawValue: "closed")
        /// A message announced a length over ``UsbmuxFrame/maxLength``; none of it was read.
        package static let tooLarge = Code(rawValue: "tooLarge")
        /// A header or property list broke the protocol's rules.
        package static let damaged = Code(rawValue: "damaged")
        /// No whole answer arrived in time.
        package static let timedOut = Code(rawValue: "timedOut")
        /// The daemon answered a request with a result other than 0 (see ``UsbmuxError/result``).
        package static let refused = Code(rawValue: "refused")
        /// A socket call failed for another reason (see the message).
        package static let system = Code(rawValue: "system")
    }

    /// The kind of failure.
    package var code: Code
    /// What went wrong and what to do, in a sentence.
    package var message: String
    /// The daemon's result code when ``code`` is ``Code/refused``.
    package var result: UsbmuxResult?

    /// An error of `code` with its message.
    package init(_ code: Code, _ message: String, result: UsbmuxResult? = nil) {
        self.code = code
        self.message = message
        self.result = result
    }

    /// The message.
    package var description: String { message }

    /// What to do when usbmuxd is not there, the same on every message that says so.
    package static let installHint =
        "on a Mac it is always running; on Linux install and start it (`apt-get install usbmuxd`), or point USBMUXD_SOCKET_ADDRESS at one (UNIX:/path or HOST:PORT)"

    /// A socket failure while talking to usbmuxd at `target`, in the client's words.
    static func socket(_ error: SocketError, target: String) -> UsbmuxError {
        switch error.errno {
        case ENOENT?, ECONNREFUSED?:
            let reason = error.errno == ENOENT ? "its socket is missing" : "nothing listens on its socket"
            return UsbmuxError(.notRunning, "usbmuxd is not running at \(target) (\(reason)); \(installHint)")
        case ETIMEDOUT?:
            return UsbmuxError(.timedOut, "usbmuxd at \(target) did not answer in time; is it stuck?")
        default:
            break
        }
        return UsbmuxError(.system, "talking to usbmuxd at \(target) failed: \(error)")
    }
}
