import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis devices`: the phones and iPads usbmuxd reaches, by USB or paired over Wi-Fi.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list the phones and iPads attached by USB or paired over Wi-Fi"
    static let usage = """
        jarvis devices [--json]

          The devices usbmuxd reaches: UDID, how each is attached (USB or Network),
          its USB product id, and usbmuxd's id for this attachment. usbmuxd always
          runs on a Mac; on Linux install it (`apt-get install usbmuxd`).
          USBMUXD_SOCKET_ADDRESS (UNIX:/path or HOST:PORT) names another usbmuxd, as
          for libimobiledevice's tools.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try arguments.finish(maxPositionals: 0, command: name)
        let client = try UsbmuxClient(environment: ProcessInfo.processInfo.environment)
        let devices = try client.devices()
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(.array(devices.map(\.json))) + [0x0A])
            return
        }
        guard !devices.isEmpty else {
            Terminal.out(
                "No devices are attached: usbmuxd at \(client.endpoint.target) sees none. Plug a phone or iPad in by USB and trust this computer on it, or pair it for Wi-Fi in Finder or Xcode."
            )
            return
        }
        var rows = [["UDID", "CONNECTION", "PRODUCT", "ID"]]
        for device in devices {
            rows.append([
                Terminal.escaped(device.udid), Terminal.escaped(device.connection.rawValue),
                device.productID.map { "0x" + String($0, radix: 16) } ?? "-", String(device.id),
            ])
        }
        Terminal.table(rows)
    }
}
