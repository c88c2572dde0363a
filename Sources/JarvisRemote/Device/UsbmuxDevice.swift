import JarvisCore

/// A phone or iPad usbmuxd reaches, as its `Properties` dictionary describes it.
package struct UsbmuxDevice: Sendable, Hashable {
    /// How the device is attached, as usbmuxd names it (`USB`, `Network`); extensible.
    package struct Connection: RawRepresentable, Sendable, Hashable {
        /// The daemon's word.
        package var rawValue: String
        /// A connection type by its word.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Plugged in by cable.
        package static let usb = Connection(rawValue: "USB")
        /// Paired over Wi-Fi and reached on the local network.
        package static let network = Connection(rawValue: "Network")
    }

    /// usbmuxd's number for this attachment, which `Connect` takes; a new one each time the
    /// device is attached again.
    package var id: UInt32
    /// The device's UDID (usbmuxd's `SerialNumber`), stable across attachments.
    package var udid: String
    /// How it is attached.
    package var connection: Connection
    /// The USB product id (which model family), when usbmuxd gives it.
    package var productID: UInt32?
    /// The USB location id, when given.
    package var locationID: UInt32?
    /// The link speed in bits per second, when given.
    package var connectionSpeed: UInt64?

    /// A device with every field given.
    package init(
        id: UInt32, udid: String, connection: Connection, productID: UInt32? = nil, locationID: UInt32? = nil,
        connectionSpeed: UInt64? = nil
    ) {
        self.id = id
        self.udid = udid
        self.connection = connection
        self.productID = productID
        self.locationID = locationID
        self.connectionSpeed = connectionSpeed
    }

    /// Reads a device's `Properties` dictionary.
    ///
    /// - Throws: ``UsbmuxError`` `.damaged` when `DeviceID`, `SerialNumber` or `ConnectionType`
    ///   is missing or of the wrong type (libusbmuxd refuses such a device too).
    package init(properties: PropertyList?) throws(UsbmuxError) {
        guard case .dictionary(let members)? = properties else {
            throw UsbmuxError(.damaged, "usbmuxd described a device without its Properties dictionary")
        }
        guard let id = members.usbmuxNumber("DeviceID").flatMap(UInt32.init(exactly:)) else {
            throw UsbmuxError(.damaged, "usbmuxd described a device without a DeviceID number")
        }
        guard let udid = members.usbmuxString("SerialNumber"), !udid.isEmpty else {
            throw UsbmuxError(.damaged, "usbmuxd described device \(id) without its SerialNumber (UDID)")
        }
        guard let connection = members.usbmuxString("ConnectionType") else {
            throw UsbmuxError(.damaged, "usbmuxd described device \(udid) without its ConnectionType")
        }
        self.init(
            id: id, udid: udid, connection: Connection(rawValue: connection),
            productID: members.usbmuxNumber("ProductID").flatMap(UInt32.init(exactly:)),
            locationID: members.usbmuxNumber("LocationID").flatMap(UInt32.init(exactly:)),
            connectionSpeed: members.usbmuxNumber("ConnectionSpeed"))
    }

    /// The device as `jarvis devices --json` prints it.
    package var json: JSONValue {
        var object: JSONObject = [
            "id": .number(JSONNumber(Int64(id))), "udid": .string(udid), "connection": .string(connection.rawValue),
        ]
        if let productID { object["productID"] = .number(JSONNumber(Int64(productID))) }
        if let locationID { object["locationID"] = .number(JSONNumber(Int64(locationID))) }
        if let connectionSpeed, let speed = Int64(exactly: connectionSpeed) {
            object["connectionSpeed"] = .number(JSONNumber(speed))
        }
        return .object(object)
    }
}
