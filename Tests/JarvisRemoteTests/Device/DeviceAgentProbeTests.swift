import Foundation
import JarvisCore
import JarvisTestSupport
import Testing

@testable import JarvisRemote

/// What the probe makes of a device port that holds no agent: nothing there, something that
/// is not an agent, a device that went away. The real agent behind a tunnel is tested end to
/// end (`DevicesEndToEndTests`).
@Suite struct DeviceAgentProbeTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func eachPortWithoutAnAgentIsAnOutcomeInWords() throws {
        let echo = try EchoServer()
        let phone = UsbmuxDouble.Device(id: 3, udid: "00008110-000A1B2C3D4E5F60", ports: [7000: echo.port])
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: [phone])
        let usbmux = UsbmuxClient(endpoint: double.endpoint)
        let probe = DeviceAgentProbe(usbmux: usbmux, timeout: .milliseconds(300))
        let device = try #require(try usbmux.devices().first)

        #expect(probe.probe(device, port: 7777) == DeviceAgent(port: 7777, status: .none))
        #expect(probe.probe(device, port: 7777).summary == "none on 7777")

        // An echo is no agent: it never answers hello, and the probe gives up in its time.
        let echoed = probe.probe(device, port: 7000)
        #expect(echoed.status == .failed)
        #expect(echoed.summary.hasPrefix("7000 failed: "), "\(echoed.summary)")

        var gone = device
        gone.id = 42
        let detached = probe.probe(gone, port: 7777)
        #expect(detached.status == .failed)
        #expect(detached.reason?.contains("BadDevice (2)") == true, "\(detached)")
    }
}
