/// One notification usbmuxd sends on a connection that asked to `Listen`.
package enum UsbmuxEvent: Sendable, Hashable {
    /// A device was attached (or was already attached when listening began).
    case attached(UsbmuxDevice)
    /// The device with this id went away.
    case detached(id: UInt32)
    /// The device with this id was paired with this computer.
    case paired(id: UInt32)
}
