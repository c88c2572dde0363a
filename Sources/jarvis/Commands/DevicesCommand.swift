import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis devices`: the phones and iPads usbmuxd reaches, by USB or paired over Wi-Fi, and on
/// each the apps whose embedded agent answers.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list the phones and iPads attached by USB or paired over Wi-Fi"
    static let usage = """
        jarvis devices [--port PORT[,PORT…]] [--udid UDID] [--json]

          The devices usbmuxd reaches: UDID, how each is attached (USB or Network),
          its USB product id, usbmuxd's id for this attachment, and the agents that
          answer on each: an app's agent listening on a TCP port of the device
          (loopback is enough), tried through usbmuxd, with what it allows.
          usbmuxd always runs on a Mac; on Linux install it (`apt-get install
          usbmuxd`). USBMUXD_SOCKET_ADDRESS (UNIX:/path or HOST:PORT) names another
          usbmuxd, as for libimobiledevice's tools.

          --port PORT,…   the device ports to try for agents (7777)
          --udid UDID     only this device; with one --port, the agent there gets
                          the token of --token-file (or JARVIS_TOKEN), which no
                          other device or port is sent
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let ports =
            try arguments.option("--port", expecting: "device ports from 1 to 65535, as in 7777,7778") { text in
                let ports = text.split(separator: ",").compactMap { UInt16($0) }.filter { $0 > 0 }
                return ports.isEmpty
                    || ports.count != text.split(separator: ",", omittingEmptySubsequences: false).count
                    ? nil : ports
            } ?? [DeviceAgentProbe.defaultPort]
        let udid = arguments.option("--udid")
        try arguments.finish(maxPositionals: 0, command: name)
        let usbmux = try UsbmuxClient(environment: ProcessInfo.processInfo.environment)
        var devices = try usbmux.devices()
        if let udid {
            devices = devices.filter { $0.udid.caseInsensitiveCompare(udid) == .orderedSame }
            guard !devices.isEmpty else {
                throw JarvisError(
                    .notFound,
                    "no device \(udid) is attached (usbmuxd at \(usbmux.endpoint.target)); `jarvis devices` lists them")
            }
        }
        // A token goes only to the one agent it was named for.
        let token = udid != nil && ports.count == 1 ? context.token : nil
        let probe = DeviceAgentProbe(usbmux: usbmux)
        let agents = devices.map { device in ports.map { probe.probe(device, port: $0, token: token) } }
        if context.json {
            let listed = zip(devices, agents).map { device, agents -> JSONValue in
                var object = device.json.objectValue ?? [:]
                object["agents"] = .array(agents.map(\.json))
                return .object(object)
            }
            Terminal.outBytes(JSONWriter.bytes(.array(listed)) + [0x0A])
            return
        }
        guard !devices.isEmpty else {
            Terminal.out(
                "No devices are attached: usbmuxd at \(usbmux.endpoint.target) sees none. Plug a phone or iPad in by USB and trust this computer on it, or pair it for Wi-Fi in Finder or Xcode."
            )
            return
        }
        var rows = [["UDID", "CONNECTION", "PRODUCT", "ID", "AGENTS"]]
        for (device, agents) in zip(devices, agents) {
            rows.append([
                Terminal.escaped(device.udid), Terminal.escaped(device.connection.rawValue),
                device.productID.map { "0x" + String($0, radix: 16) } ?? "-", String(device.id),
                Terminal.escaped(agents.map(\.summary).joined(separator: "; ")),
            ])
        }
        Terminal.table(rows)
    }
}
