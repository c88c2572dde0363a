import JarvisCore
import Testing

@testable import JarvisRemote

/// A device's `Properties` as usbmuxd sends them, and what is refused as libusbmuxd refuses it.
@Suite struct UsbmuxDeviceTests {
    static let properties: [PropertyList.Member] = [
        .init("ConnectionSpeed", .integer(480_000_000)), .init("ConnectionType", .string("USB")),
        .init("DeviceID", .integer(3)), .init("LocationID", .integer(0)), .init("ProductID", .integer(0x12a8)),
        .init("SerialNumber", .string("00008110-000A1B2C3D4E5F60")),
    ]

    @Test func readsEveryPropertyGiven() throws {
        let device = try UsbmuxDevice(properties: .dictionary(Self.properties))
        #expect(
            device
                == UsbmuxDevice(
                    id: 3, udid: "00008110-000A1B2C3D4E5F60", connection: .usb, productID: 0x12a8, locationID: 0,
                    connectionSpeed: 480_000_000))
        #expect(
            String(decoding: JSONWriter.bytes(device.json), as: UTF8.self)
                == #"{"id":3,"udid":"00008110-000A1B2C3D4E5F60","connection":"USB","productID":4776,"locationID":0,"connectionSpeed":480000000}"#
        )
    }

    @Test(arguments: ["DeviceID", "SerialNumber", "ConnectionType"])
    func aDeviceWithoutWhatNamesItIsDamaged(missing: String) {
        let properties = PropertyList.dictionary(Self.properties.filter { $0.key != missing })
        #expect {
            try UsbmuxDevice(properties: properties)
        } throws: { error in
            let error = error as? UsbmuxError
            return error?.code == .damaged && error?.message.contains(missing) == true
        }
    }

    @Test func aNegativeOrHugeIDIsDamaged() {
        for id in [PropertyList.integer(-1), .integer(1 << 40), .string("3")] {
            let properties = Self.properties.map { $0.key == "DeviceID" ? .init("DeviceID", id) : $0 }
            #expect(throws: UsbmuxError.self) { try UsbmuxDevice(properties: .dictionary(properties)) }
        }
        #expect(throws: UsbmuxError.self) { try UsbmuxDevice(properties: nil) }
    }
}
