import JarvisCore
import JarvisTransport

/// Asks a port of a device, through usbmuxd, whether an app's embedded agent answers there:
/// connects (`Connect`), then says `hello` over the tunnel as any client does.
///
/// An app on a phone serves its agent on a TCP port of its own (loopback is enough: usbmuxd
/// reaches the device's 127.0.0.1); ``defaultPort`` is the one the docs have it use.
package struct DeviceAgentProbe: Sendable {
    /// The port `jarvis devices` tries when given none: the port docs/REMOTE.md has an app's
    /// agent listen on (`Options(tcp: .tcp(host: "127.0.0.1", port: 7777))`).
    package static let defaultPort: UInt16 = 7777

    /// The usbmuxd the device is reached through.
    package var usbmux: UsbmuxClient
    /// How long the agent may take to answer `hello`.
    package var timeout: Duration

    /// A probe through `usbmux`.
    package init(usbmux: UsbmuxClient, timeout: Duration = .seconds(5)) {
        self.usbmux = usbmux
        self.timeout = timeout
    }

    /// What answers on `port` of `device`. Never throws: every failure is an outcome.
    ///
    /// - Parameter token: sent in `hello`; pass one only for the device and port it belongs
    ///   to (a token goes to exactly the agent it was made for).
    package func probe(_ device: UsbmuxDevice, port: UInt16, token: String? = nil) -> DeviceAgent {
        let tunnel: Socket
        do {
            tunnel = try usbmux.connect(to: device.id, port: port)
        } catch {
            if error.result == .connectionRefused { return DeviceAgent(port: port, status: .none) }
            return DeviceAgent(port: port, status: .failed, reason: error.message)
        }
        let connection: LineClient
        do {
            // The device and port name the tunnel in messages.
            connection = try LineClient(
                socket: tunnel, endpoint: .tcp(host: device.udid, port: port), timeout: timeout, maxLineLength: 1 << 20)
        } catch {
            // LineClient closed the tunnel.
            return DeviceAgent(port: port, status: .failed, reason: "\(error)")
        }
        do {
            let client = try JarvisClient(
                connection: connection, clientName: "jarvis devices", token: token, timeout: timeout)
            return DeviceAgent(port: port, status: .answered, hello: client.helloResult)
        } catch {
            if error.code == .unauthorized {
                return DeviceAgent(port: port, status: .needsToken, reason: error.message)
            }
            return DeviceAgent(port: port, status: .failed, reason: error.message)
        }
    }
}
