import JarvisCore

/// A connection that asked usbmuxd to `Listen`: reads its notifications one at a time.
///
/// Not thread-safe: one thread reads a listener. Its socket closes when it goes away.
package final class UsbmuxListener {
    private let connection: UsbmuxConnection

    init(connection: UsbmuxConnection) {
        self.connection = connection
    }

    /// The next notification, or nil when none came before `deadline`.
    ///
    /// Notifications of kinds this client does not know are skipped.
    /// - Throws: ``UsbmuxError``: `.closed` when the daemon hung up, `.damaged`, `.tooLarge`,
    ///   `.timedOut` when a message began but did not finish in time.
    package func next(until deadline: ContinuousClock.Instant) throws(UsbmuxError) -> UsbmuxEvent? {
        while let message = try connection.receive(until: deadline, idleOK: true) {
            switch message.usbmuxString("MessageType") {
            case "Attached":
                return .attached(try UsbmuxDevice(properties: message[usbmux: "Properties"]))
            case "Detached":
                return .detached(id: try Self.deviceID(message, "Detached"))
            case "Paired":
                return .paired(id: try Self.deviceID(message, "Paired"))
            default:
                continue
            }
        }
        return nil
    }

    private static func deviceID(_ message: [PropertyList.Member], _ type: String) throws(UsbmuxError) -> UInt32 {
        guard let id = message.usbmuxNumber("DeviceID").flatMap(UInt32.init(exactly:)) else {
            throw UsbmuxError(.damaged, "usbmuxd sent a \(type) message without a DeviceID number")
        }
        return id
    }
}
