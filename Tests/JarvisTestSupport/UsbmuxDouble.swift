import Foundation
import JarvisCore
import JarvisTransport

/// A usbmuxd of the tests' own: a Unix socket that speaks the daemon's protocol (16-byte
/// little-endian header, XML property lists), serving `ListDevices` with the devices it is
/// given, `Listen` with an `Attached` message for each, and `Connect` by forwarding the
/// device's port to a local TCP port, so a device's embedded agent can be a real
/// `jarvis-agent --tcp` on 127.0.0.1. Debian's real `iproxy` is tested against it.
///
/// A ``Fault`` makes it misbehave the ways a broken daemon does. Each connection is served on
/// a thread of its own until ``stop()``.
package final class UsbmuxDouble: Sendable {
    /// A device the double reports.
    package struct Device: Sendable {
        /// usbmuxd's DeviceID.
        package var id: UInt32
        /// The UDID (SerialNumber).
        package var udid: String
        /// `USB` or `Network`.
        package var connection: String
        /// The USB product id.
        package var productID: UInt32
        /// Device port to local TCP port on 127.0.0.1.
        package var ports: [UInt16: UInt16]

        /// A device; `ports` maps each of its ports to a local TCP port.
        package init(
            id: UInt32, udid: String, connection: String = "USB", productID: UInt32 = 0x12a8,
            ports: [UInt16: UInt16] = [:]
        ) {
            self.id = id
            self.udid = udid
            self.connection = connection
            self.productID = productID
            self.ports = ports
        }
    }

    /// A way to misbehave, instead of answering a request.
    package enum Fault: Sendable {
        /// Sends the first 7 bytes of a header, then closes.
        case closeMidMessage
        /// Sends a header announcing 2 GiB, then waits.
        case hugeLength
        /// Sends a well-formed header before bytes that are no property list.
        case damagedPlist
        /// Answers Connect with BadDevice (2), as when the device detaches meanwhile.
        case detachOnConnect
        /// Reads requests and never answers.
        case silent
    }

    /// The socket's path, or nil for a double on TCP.
    package let path: String?
    /// The value for `USBMUXD_SOCKET_ADDRESS`: `UNIX:/path`, or `127.0.0.1:PORT` on TCP.
    package let address: String
    /// Where the double listens, for a client in the same process.
    package let endpoint: Endpoint
    private let state: Locked<State>
    private let loop: AcceptLoop

    private struct State {
        var devices: [Device]
        var fault: Fault?
        var requests: [[PropertyList.Member]] = []
        /// The connections that asked to `Listen`, told of every attach and detach.
        var listening: [Socket] = []
    }

    /// Listens at `path` (nil: on a free TCP port of 127.0.0.1, as usbmuxd on Windows) with
    /// `devices`, misbehaving as `fault` says when given.
    package init(path: String?, devices: [Device] = [], fault: Fault? = nil) throws {
        self.path = path
        let listener: Socket
        if let path {
            listener = try Socket.listen(on: .unix(path: path))
            // iproxy and the CLI may run as other users in other setups; the real socket is 0666.
            chmod(path, 0o666)
            address = "UNIX:\(path)"
            endpoint = .unix(path: path)
        } else {
            listener = try Socket.listen(on: .tcp(host: "127.0.0.1", port: 0))
            address = "127.0.0.1:\(listener.boundPort ?? 0)"
            endpoint = .tcp(host: "127.0.0.1", port: listener.boundPort ?? 0)
        }
        let state = Locked(State(devices: devices, fault: fault))
        self.state = state
        loop = AcceptLoop(listener) { UsbmuxDouble.serve($0, state) }
    }

    deinit { stop() }

    /// Attaches `device`: later lists hold it, and every listener hears `Attached`.
    package func attach(_ device: Device) {
        state.withLock { state in
            state.devices.append(device)
            for socket in state.listening { Self.send(socket, tag: 0, Self.attached(device).members) }
        }
    }

    /// Detaches the device `id`: later lists lack it, and every listener hears `Detached`.
    package func detach(_ id: UInt32) {
        state.withLock { state in
            state.devices.removeAll { $0.id == id }
            let message: [PropertyList.Member] = [
                .init("DeviceID", .integer(Int64(id))), .init("MessageType", .string("Detached")),
            ]
            for socket in state.listening { Self.send(socket, tag: 0, message) }
        }
    }

    /// Every request received so far, as its property list.
    package var requests: [[PropertyList.Member]] { state.current.requests }

    /// Stops accepting and closes every connection, tunnels included. Idempotent.
    package func stop() {
        if loop.stop(), let path { unlink(path) }
    }

    private static func serve(_ socket: Socket, _ state: Locked<State>) {
        while let request = readMessage(socket) {
            state.withLock { $0.requests.append(request.fields) }
            let (devices, fault) = state.withLock { ($0.devices, $0.fault) }
            let type = request.fields.first { $0.key == "MessageType" }?.value
            if let fault, fault != .detachOnConnect || type == .string("Connect") {
                misbehave(socket, fault, tag: request.tag)
                return
            }
            switch type {
            case .string("ListDevices"):
                send(socket, tag: request.tag, [.init("DeviceList", .array(devices.map { attached($0) }))])
            case .string("Listen"):
                // Under the lock, so an attach or detach meanwhile is heard after these, once.
                state.withLock { state in
                    send(socket, tag: request.tag, result(0))
                    for device in state.devices { send(socket, tag: 0, attached(device).members) }
                    state.listening.append(socket)
                }
            case .string("Connect"):
                connect(socket, request, devices)
                return
            default:
                send(socket, tag: request.tag, result(1))
            }
        }
        socket.shutdown()
    }

    private static func connect(
        _ socket: Socket, _ request: (tag: UInt32, fields: [PropertyList.Member]), _ devices: [Device]
    ) {
        let id = request.fields.first { $0.key == "DeviceID" }?.value
        let wirePort = request.fields.first { $0.key == "PortNumber" }?.value
        guard let device = devices.first(where: { id == .integer(Int64($0.id)) }) else {
            send(socket, tag: request.tag, result(2))
            return socket.shutdown()
        }
        // PortNumber is the port in network byte order, read as a little-endian number.
        guard case .integer(let number)? = wirePort, let port = UInt16(exactly: number)?.byteSwapped,
            let local = device.ports[port],
            let target = try? Socket.connect(to: .tcp(host: "127.0.0.1", port: local), timeout: .seconds(2))
        else {
            send(socket, tag: request.tag, result(3))
            return socket.shutdown()
        }
        send(socket, tag: request.tag, result(0))
        Thread.detachNewThread { pump(from: target, to: socket) }
        pump(from: socket, to: target)
    }

    /// Copies bytes until end of file, then passes the end on.
    private static func pump(from source: Socket, to sink: Socket) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { (try? source.read(into: $0)) ?? 0 }
            guard count > 0, (try? sink.writeAll(Array(buffer[..<count]), timeout: .seconds(10))) != nil else { break }
        }
        sink.shutdownWrite()
    }

    private static func misbehave(_ socket: Socket, _ fault: Fault, tag: UInt32) {
        switch fault {
        case .closeMidMessage:
            _ = try? socket.writeAll(Array(header(length: 300, tag: tag).prefix(7)))
            socket.shutdown()
        case .hugeLength:
            _ = try? socket.writeAll(header(length: 0x8000_0000, tag: tag))
            while readMessage(socket) != nil {}
        case .damagedPlist:
            let junk = Array("<?xml version=\"1.0\"?><plist><dict><key>Mess".utf8)
            _ = try? socket.writeAll(header(length: UInt32(16 + junk.count), tag: tag) + junk)
            while readMessage(socket) != nil {}
        case .detachOnConnect:
            send(socket, tag: tag, result(2))
            socket.shutdown()
        case .silent:
            while readMessage(socket) != nil {}
        }
    }

    private static func attached(_ device: Device) -> PropertyList {
        var properties: [PropertyList.Member] = [
            .init("ConnectionType", .string(device.connection)), .init("DeviceID", .integer(Int64(device.id))),
            .init("LocationID", .integer(0)), .init("ProductID", .integer(Int64(device.productID))),
            .init("SerialNumber", .string(device.udid)),
        ]
        if device.connection == "USB" {
            properties.append(.init("ConnectionSpeed", .integer(480_000_000)))
        } else {
            // libusbmuxd needs a network device's address (a sockaddr) to accept it.
            properties.append(
                .init("NetworkAddress", .data([0x10, 0x02, 0, 0, 127, 0, 0, 1] + [UInt8](repeating: 0, count: 8))))
            properties.append(.init("EscapedFullServiceName", .string("\(device.udid)._apple-mobdev2._tcp.local.")))
        }
        return .dictionary([
            .init("DeviceID", .integer(Int64(device.id))), .init("MessageType", .string("Attached")),
            .init("Properties", .dictionary(properties)),
        ])
    }

    private static func result(_ number: Int64) -> [PropertyList.Member] {
        [.init("MessageType", .string("Result")), .init("Number", .integer(number))]
    }

    private static func header(length: UInt32, tag: UInt32) -> [UInt8] {
        [length, 1, 8, tag].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    private static func send(_ socket: Socket, tag: UInt32, _ members: [PropertyList.Member]) {
        guard let payload = try? PropertyListCodec.write(.dictionary(members), as: .xml) else { return }
        _ = try? socket.writeAll(header(length: UInt32(16 + payload.count), tag: tag) + payload, timeout: .seconds(5))
    }

    /// One request, or nil when the client closed or sent something that is no request.
    private static func readMessage(_ socket: Socket) -> (tag: UInt32, fields: [PropertyList.Member])? {
        guard let head = readExactly(socket, 16) else { return nil }
        let words = (0..<4).map { index in
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(head[index * 4 + $1]) << (8 * $1) }
        }
        guard words[0] >= 16, words[0] < 1 << 20, words[2] == 8,
            let payload = readExactly(socket, Int(words[0]) - 16),
            case .dictionary(let fields)? = try? PropertyListCodec.read(payload).value
        else { return nil }
        return (words[3], fields)
    }

    private static func readExactly(_ socket: Socket, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { raw in
                (try? socket.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))) ?? 0
            }
            guard read > 0 else { return nil }
            filled += read
        }
        return bytes
    }
}

extension PropertyList {
    fileprivate var members: [PropertyList.Member] {
        if case .dictionary(let members) = self { return members }
        return []
    }
}
