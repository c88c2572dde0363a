import JarvisCore
import JarvisTransport

/// Talks to usbmuxd, the daemon that reaches the phones and iPads attached by USB or paired
/// over Wi-Fi (always running on a Mac; the `usbmuxd` package on Linux), with no library of
/// its own: its socket, its property-list messages.
///
/// Each call opens its own connection, so a value is safe to share between threads. Every
/// answer is bounded in time (``timeout``) and size; every failure is a ``UsbmuxError``.
///
/// ```swift
/// let usbmux = try UsbmuxClient(environment: ProcessInfo.processInfo.environment)
/// for device in try usbmux.devices() { print(device.udid, device.connection.rawValue) }
/// let tunnel = try usbmux.connect(to: device.id, port: 7777)  // raw bytes to the device's port
/// ```
package struct UsbmuxClient: Sendable {
    /// Where the daemon listens.
    package var endpoint: Endpoint
    /// How long one answer may take.
    package var timeout: Duration

    /// A client of the daemon at `endpoint`.
    package init(endpoint: Endpoint = .unix(path: UsbmuxAddress.defaultPath), timeout: Duration = .seconds(5)) {
        self.endpoint = endpoint
        self.timeout = timeout
    }

    /// A client of the daemon `USBMUXD_SOCKET_ADDRESS` names in `environment`, else the default.
    ///
    /// - Throws: ``UsbmuxError`` `.badAddress` when the variable is set but unreadable.
    package init(environment: [String: String], timeout: Duration = .seconds(5)) throws(UsbmuxError) {
        self.init(endpoint: try UsbmuxAddress.endpoint(environment: environment), timeout: timeout)
    }

    /// The devices attached now (`ListDevices`).
    package func devices() throws(UsbmuxError) -> [UsbmuxDevice] {
        let connection = try UsbmuxConnection(endpoint: endpoint, timeout: timeout)
        let reply = try connection.request("ListDevices")
        try Self.check(reply, of: "ListDevices", at: connection.target, resultOnly: false)
        guard case .array(let entries)? = reply[usbmux: "DeviceList"] else {
            throw UsbmuxError(.damaged, "usbmuxd answered ListDevices without a DeviceList array")
        }
        var devices: [UsbmuxDevice] = []
        for entry in entries {
            guard case .dictionary(let members) = entry else {
                throw UsbmuxError(.damaged, "usbmuxd listed \(entry.kindDescription) where a device is a dictionary")
            }
            devices.append(try UsbmuxDevice(properties: members[usbmux: "Properties"]))
        }
        return devices
    }

    /// Starts listening for devices attached and detached (`Listen`); the daemon first reports
    /// every device already attached.
    ///
    /// - Throws: ``UsbmuxError``; `.refused` when the daemon answered a result other than 0.
    package func listen() throws(UsbmuxError) -> UsbmuxListener {
        let connection = try UsbmuxConnection(endpoint: endpoint, timeout: timeout)
        let reply = try connection.request("Listen")
        try Self.check(reply, of: "Listen", at: connection.target, resultOnly: true)
        return UsbmuxListener(connection: connection)
    }

    /// Opens a raw byte stream to `port` on the device (`Connect`).
    ///
    /// - Returns: a blocking socket whose bytes go to and come from the device's port; the
    ///   caller closes it.
    /// - Throws: ``UsbmuxError`` `.refused` with ``UsbmuxResult/badDevice`` when the device is
    ///   gone (it detached), ``UsbmuxResult/connectionRefused`` when nothing listens on the port.
    package func connect(to deviceID: UInt32, port: UInt16) throws(UsbmuxError) -> Socket {
        let connection = try UsbmuxConnection(endpoint: endpoint, timeout: timeout)
        // The port goes in network byte order read as the little-endian number usbmuxd's own
        // hosts use (libusbmuxd sends `htons(port)` on them).
        let reply = try connection.request(
            "Connect",
            [.init("DeviceID", .integer(Int64(deviceID))), .init("PortNumber", .integer(Int64(port.byteSwapped)))])
        try Self.check(
            reply, of: "Connect to port \(port) of device \(deviceID)", at: connection.target, resultOnly: true)
        return try connection.tunnel()
    }

    /// Refuses a `Result` other than 0; with `resultOnly`, also any reply that is not a `Result`.
    static func check(_ reply: [PropertyList.Member], of request: String, at target: String, resultOnly: Bool)
        throws(UsbmuxError)
    {
        let type = reply.usbmuxString("MessageType")
        guard type == "Result" else {
            if !resultOnly, type == nil { return }
            throw UsbmuxError(
                .damaged,
                "usbmuxd at \(target) answered \(request) with \(type.map { "a \($0) message" } ?? "a message without a type"), not a Result"
            )
        }
        guard let number = reply.usbmuxNumber("Number") else {
            throw UsbmuxError(.damaged, "usbmuxd at \(target) answered \(request) with a Result without a Number")
        }
        let result = UsbmuxResult(rawValue: number)
        guard result == .ok else {
            throw UsbmuxError(.refused, "usbmuxd refused \(request): \(result): \(result.meaning)", result: result)
        }
    }
}
