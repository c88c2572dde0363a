import Foundation
import JarvisCore
import JarvisTestSupport
import JarvisTransport
import Testing

@testable import JarvisRemote

/// The usbmuxd client against the tests' own usbmuxd: devices, notifications, tunnels, and a
/// clear typed error for every way a daemon can misbehave.
@Suite struct UsbmuxClientTests {
    let folder: TemporaryFolder
    /// The doubles of this test, kept serving until it ends.
    let doubles = Locked<[UsbmuxDouble]>([])
    init() throws { folder = try TemporaryFolder() }

    func double(_ devices: [UsbmuxDouble.Device] = [], fault: UsbmuxDouble.Fault? = nil) throws -> (
        UsbmuxDouble, UsbmuxClient
    ) {
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: devices, fault: fault)
        doubles.withLock { $0.append(double) }
        return (double, UsbmuxClient(endpoint: double.endpoint, timeout: .seconds(5)))
    }

    static let phone = UsbmuxDouble.Device(id: 3, udid: "00008110-000A1B2C3D4E5F60", productID: 0x12a8)
    static let pad = UsbmuxDouble.Device(
        id: 9, udid: "b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0", connection: "Network", productID: 0x12ab)

    @Test func listsTheAttachedDevices() throws {
        let (double, client) = try double([Self.phone, Self.pad])
        let devices = try client.devices()
        #expect(devices.map(\.udid) == [Self.phone.udid, Self.pad.udid])
        #expect(devices.map(\.id) == [3, 9])
        #expect(devices.map(\.connection) == [.usb, .network])
        #expect(devices.map(\.productID) == [0x12a8, 0x12ab])
        #expect(double.requests.first?.usbmuxString("MessageType") == "ListDevices")
        #expect(try UsbmuxClient(endpoint: double.endpoint).devices().count == 2)
    }

    @Test func noDevicesIsAnEmptyList() throws {
        let (_, client) = try double()
        #expect(try client.devices().isEmpty)
    }

    @Test func listenReportsEachAttachedDevice() throws {
        let (_, client) = try double([Self.phone, Self.pad])
        let listener = try client.listen()
        let deadline = ContinuousClock.now + .seconds(5)
        guard case .attached(let first)? = try listener.next(until: deadline),
            case .attached(let second)? = try listener.next(until: deadline)
        else { Issue.record("expected two Attached notifications"); return }
        #expect([first.udid, second.udid] == [Self.phone.udid, Self.pad.udid])
        #expect(try listener.next(until: .now + .milliseconds(50)) == nil)
    }

    @Test func listenHearsDevicesDetachAndAttach() throws {
        let (double, client) = try double([Self.phone])
        let listener = try client.listen()
        let deadline = ContinuousClock.now + .seconds(5)
        guard case .attached(let first)? = try listener.next(until: deadline) else {
            Issue.record("expected the phone attached")
            return
        }
        #expect(first.id == 3)
        double.detach(3)
        #expect(try listener.next(until: deadline) == .detached(id: 3))
        double.attach(Self.pad)
        guard case .attached(let second)? = try listener.next(until: deadline) else {
            Issue.record("expected the pad attached")
            return
        }
        #expect(second.udid == Self.pad.udid)
        #expect(try client.devices().map(\.id) == [9])
        double.stop()
        #expect(throws: UsbmuxError.self) { try listener.next(until: deadline) }
    }

    @Test func connectTunnelsBytesToTheDevicePort() throws {
        let echo = try EchoServer()
        var phone = Self.phone
        phone.ports = [7777: echo.port]
        let (double, client) = try double([phone])
        let tunnel = try client.connect(to: 3, port: 7777)
        defer { tunnel.close() }
        try tunnel.writeAll(Array("hello phone\n".utf8), timeout: .seconds(5))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try tunnel.wait(for: Int16(POLLIN), until: .now + .seconds(5)))
        let count = try buffer.withUnsafeMutableBytes { raw throws(SocketError) in try tunnel.read(into: raw) }
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "hello phone\n")
        // The port in network byte order, as libusbmuxd's htons writes it: 7777 = 0x1E61 → 0x611E.
        #expect(double.requests.last?.usbmuxNumber("PortNumber") == 0x611E)
        #expect(double.requests.last?.usbmuxNumber("DeviceID") == 3)
    }

    @Test func aDeviceThatIsGoneIsBadDevice() throws {
        let (_, client) = try double([Self.phone])
        expect(
            try client.connect(to: 42, port: 7777), .refused,
            "usbmuxd refused Connect to port 7777 of device 42: BadDevice (2): no such device is attached")
    }

    @Test func aPortNobodyListensOnIsConnectionRefused() throws {
        let (_, client) = try double([Self.phone])
        expect(
            try client.connect(to: 3, port: 7777), .refused, "ConnectionRefused (3): the device refused the connection")
    }

    @Test func aDeviceThatDetachesDuringConnectIsBadDevice() throws {
        let echo = try EchoServer()
        var phone = Self.phone
        phone.ports = [7777: echo.port]
        let (_, client) = try double([phone], fault: .detachOnConnect)
        #expect(try client.devices().count == 1)
        expect(try client.connect(to: 3, port: 7777), .refused, "BadDevice (2)")
    }

    @Test func aDaemonThatClosesMidMessageSaysSo() throws {
        let (_, client) = try double([Self.phone], fault: .closeMidMessage)
        expect(try client.devices(), .closed, "closed the connection in the middle of a header (after 7 of 16 bytes)")
    }

    @Test func aHugeLengthIsRefused() throws {
        let (_, client) = try double([Self.phone], fault: .hugeLength)
        expect(try client.devices(), .tooLarge, "announced a message of 2147483648 bytes")
    }

    @Test func aDamagedPropertyListIsRefused() throws {
        let (_, client) = try double([Self.phone], fault: .damagedPlist)
        expect(try client.devices(), .damaged, "usbmuxd sent a damaged property list")
    }

    @Test func aSilentDaemonTimesOut() throws {
        let (double, _) = try double([Self.phone], fault: .silent)
        let client = UsbmuxClient(endpoint: double.endpoint, timeout: .milliseconds(200))
        expect(try client.listen(), .timedOut, "did not answer Listen in 0.2 seconds; is it stuck?")
    }

    @Test func aMissingSocketIsNotRunning() throws {
        let client = UsbmuxClient(endpoint: .unix(path: folder.socketPath("none")))
        expect(
            try client.devices(), .notRunning,
            "usbmuxd is not running at \(folder.socketPath("none")) (its socket is missing); on a Mac it is always running; on Linux install"
        )
    }

    private func expect<T>(
        _ body: @autoclosure () throws -> T, _ code: UsbmuxError.Code, _ words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try body()
            Issue.record("expected \(code.rawValue), got an answer", sourceLocation: sourceLocation)
        } catch let error as UsbmuxError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(words), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("not a UsbmuxError: \(error)", sourceLocation: sourceLocation)
        }
    }
}
