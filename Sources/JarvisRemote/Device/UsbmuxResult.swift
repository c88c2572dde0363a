/// The number usbmuxd answers a request with (`Result` message, `Number` key): 0 is success.
///
/// An extensible struct: a daemon may answer codes this client has no name for, and those
/// are shown by number.
package struct UsbmuxResult: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as the daemon sent it.
    package var rawValue: UInt64
    /// A result by number.
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The request was carried out (after a `Connect`, the socket is now the device's port).
    package static let ok = UsbmuxResult(rawValue: 0)
    /// The daemon did not understand the request.
    package static let badCommand = UsbmuxResult(rawValue: 1)
    /// No device has that id (it was never attached, or it detached).
    package static let badDevice = UsbmuxResult(rawValue: 2)
    /// The device refused the connection: nothing listens on that port there.
    package static let connectionRefused = UsbmuxResult(rawValue: 3)
    /// The daemon does not speak this protocol version.
    package static let badVersion = UsbmuxResult(rawValue: 6)

    /// The code's name with its number, e.g. `BadDevice (2)`.
    package var description: String {
        let name: String? =
            switch self {
            case .ok: "OK"
            case .badCommand: "BadCommand"
            case .badDevice: "BadDevice"
            case .connectionRefused: "ConnectionRefused"
            case .badVersion: "BadVersion"
            default: nil
            }
        return name.map { "\($0) (\(rawValue))" } ?? "result \(rawValue)"
    }

    /// What the code means for a person, after "usbmuxd refused …".
    package var meaning: String {
        switch self {
        case .badCommand: "it did not understand the request"
        case .badDevice: "no such device is attached (it may have been unplugged)"
        case .connectionRefused: "the device refused the connection: nothing listens on that port there"
        case .badVersion: "it does not speak this version of the protocol"
        default: "it gave a reason this client does not know"
        }
    }
}
