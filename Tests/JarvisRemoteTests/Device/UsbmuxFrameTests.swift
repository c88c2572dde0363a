import JarvisCore
import Testing

@testable import JarvisRemote

/// The usbmuxd wire format as bytes: the header libusbmuxd writes, and every bound on what
/// comes back.
@Suite struct UsbmuxFrameTests {
    @Test func aRequestIsALittleEndianHeaderBeforeAnXMLDictionary() throws {
        let bytes = UsbmuxFrame.encode([.init("MessageType", .string("ListDevices"))], tag: 7)
        let payload = Array(bytes.dropFirst(16))
        let length = [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), 0, 0]
        #expect(Array(bytes.prefix(16)) == length + [1, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0])
        #expect(
            String(decoding: payload, as: UTF8.self).contains("<key>MessageType</key>\n\t<string>ListDevices</string>"))
        #expect(try UsbmuxFrame.message(payload) == [.init("MessageType", .string("ListDevices"))])
    }

    @Test func aHeaderIsReadBackAsWritten() throws {
        let header = UsbmuxFrame.Header(length: 300, version: 1, message: 8, tag: 0x0102_0304)
        #expect(try UsbmuxFrame.header(UsbmuxFrame.bytes(of: header)) == header)
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeReading() {
        let bytes = UsbmuxFrame.bytes(of: .init(length: 0x8000_0000, version: 1, message: 8, tag: 1))
        #expect {
            try UsbmuxFrame.header(bytes)
        } throws: { error in
            let error = error as? UsbmuxError
            return error?.code == .tooLarge && error?.message.contains("2147483648 bytes, over the 1 MiB") == true
        }
    }

    @Test func aLengthShorterThanTheHeaderIsDamaged() {
        #expect(throws: UsbmuxError.self) {
            try UsbmuxFrame.header(UsbmuxFrame.bytes(of: .init(length: 3, version: 1, message: 8, tag: 1)))
        }
    }

    @Test func aBinaryProtocolMessageIsRefusedByItsType() {
        #expect {
            try UsbmuxFrame.header(UsbmuxFrame.bytes(of: .init(length: 20, version: 0, message: 1, tag: 1)))
        } throws: { error in
            (error as? UsbmuxError)?.message.contains("message type 1, not a property list (8)") == true
        }
    }

    @Test func aDamagedPropertyListSaysSo() {
        #expect {
            try UsbmuxFrame.message(Array("<?xml version=\"1.0\"?><plist><dict><key>Mess".utf8))
        } throws: { error in
            let error = error as? UsbmuxError
            return error?.code == .damaged && error?.message.hasPrefix("usbmuxd sent a damaged property list: ") == true
        }
        #expect(throws: UsbmuxError.self) { try UsbmuxFrame.message(Array("<plist><array/></plist>".utf8)) }
    }

    @Test func theAddressIsReadAsLibusbmuxdReadsIt() throws {
        #expect(try UsbmuxAddress.endpoint(environment: [:]) == .unix(path: "/var/run/usbmuxd"))
        #expect(try UsbmuxAddress.parse("UNIX:/tmp/mux") == .unix(path: "/tmp/mux"))
        #expect(try UsbmuxAddress.parse("127.0.0.1:27015") == .tcp(host: "127.0.0.1", port: 27015))
        #expect(try UsbmuxAddress.parse("[::1]:27015") == .tcp(host: "::1", port: 27015))
        for bad in ["UNIX:relative", "localhost", "host:0", ":27015", "host:99999"] {
            #expect(throws: UsbmuxError.self) { try UsbmuxAddress.parse(bad) }
        }
    }

    @Test func resultCodesAreNamedInWords() {
        #expect(UsbmuxResult(rawValue: 2).description == "BadDevice (2)")
        #expect(UsbmuxResult(rawValue: 3).description == "ConnectionRefused (3)")
        #expect(UsbmuxResult(rawValue: 6).description == "BadVersion (6)")
        #expect(UsbmuxResult(rawValue: 9).description == "result 9")
    }
}
