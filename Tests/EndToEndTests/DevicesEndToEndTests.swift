import Foundation
import JarvisCore
import JarvisRemote
import JarvisTestSupport
import JarvisTransport
import Testing

/// `jarvis devices` on the real binary against the tests' own usbmuxd (devices listed, every
/// misbehaviour a clear message and exit status 1), the double against Debian's real `iproxy`
/// (so it speaks the real protocol), and the client against Debian's real `usbmuxd`.
@Suite struct DevicesEndToEndTests {
    let sandbox: Sandbox
    let folder: TemporaryFolder

    init() throws {
        sandbox = try Sandbox()
        folder = try TemporaryFolder()
    }

    static let phone = UsbmuxDouble.Device(id: 3, udid: "00008110-000A1B2C3D4E5F60", productID: 0x12a8)
    static let pad = UsbmuxDouble.Device(
        id: 9, udid: "b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0", connection: "Network", productID: 0x12ab)

    /// `jarvis devices ARGUMENTS` against `double`, killed if it runs over 20 s.
    func devices(_ double: UsbmuxDouble, _ arguments: String...) throws -> CommandResult {
        sandbox.environmentOverrides["USBMUXD_SOCKET_ADDRESS"] = double.address
        return try sandbox.run(Binaries.url("jarvis"), ["devices"] + arguments, limit: 20)
    }

    @Test func listsTheDevicesUsbmuxdReaches() throws {
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: [Self.phone, Self.pad])
        let table = try devices(double)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(
            lines == [
                ["UDID", "CONNECTION", "PRODUCT", "ID", "AGENTS"],
                [Substring(Self.phone.udid), "USB", "0x12a8", "3", "none", "on", "7777"],
                [Substring(Self.pad.udid), "Network", "0x12ab", "9", "none", "on", "7777"],
            ])

        let json = try devices(double, "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let listed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.map { $0["udid"] as? String } == [Self.phone.udid, Self.pad.udid])
        #expect(listed?.map { $0["connection"] as? String } == ["USB", "Network"])
        #expect(listed?.first?["productID"] as? Int == 0x12a8)
        #expect(listed?.first?["id"] as? Int == 3)
        #expect((listed?.first?["agents"] as? [[String: Any]])?.first?["status"] as? String == "none")
    }

    /// A device whose port 7777 is a real `jarvis-agent --listen` on 127.0.0.1, reached through
    /// the double's tunnel: without its token it is an agent that needs one, with it (named
    /// for that device and port alone) it says who it is and what it allows; port 7778 has
    /// nothing.
    @Test func theAgentsOnEachDeviceAnswerThroughUsbmuxd() throws {
        let prefs = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.app", in: prefs, ["user_name": "Ada"])
        let agent = try AgentProcess(sandbox, ["--defaults-dir", prefs.path, "--listen", "0"])
        guard case .tcp(_, let agentPort) = try agent.tcp() else { throw HarnessError("no TCP port") }
        var phone = Self.phone
        phone.ports = [7777: agentPort]
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: [phone, Self.pad])

        let table = try devices(double, "--port", "7777,7778")
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.stdout.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows.first?.hasSuffix("AGENTS") == true)
        #expect(
            rows.dropFirst().first?.hasSuffix("an agent on 7777 (needs its token); none on 7778") == true,
            "\(table.stdout)")
        #expect(rows.last?.hasSuffix("none on 7777; none on 7778") == true, "\(table.stdout)")

        let tokenFile = sandbox.root.appendingPathComponent("token")
        try Data(try #require(agent.record.token).utf8).write(to: tokenFile)
        chmod(tokenFile.path, 0o600)
        let named = try devices(
            double, "--udid", phone.udid, "--port", "7777", "--token-file", tokenFile.path, "--json")
        #expect(named.status == 0, "\(named.stderr)")
        let listed = try JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [[String: Any]]
        #expect(listed?.count == 1)
        let found = try #require((listed?.first?["agents"] as? [[String: Any]])?.first)
        #expect(found["status"] as? String == "answered")
        #expect(found["port"] as? Int == 7777)
        #expect(found["agent"] as? String == agent.record.name)
        #expect(found["pid"] as? Int == Int(agent.pid))
        #expect((found["capabilities"] as? [String: Any])?["editing"] as? Bool == true)
        #expect((found["scanners"] as? [String])?.contains("defaults") == true)

        // The same token is never sent where the device or the port was not named.
        let all = try devices(double, "--port", "7777", "--token-file", tokenFile.path, "--json")
        let statuses = (try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])?.map {
            ($0["agents"] as? [[String: Any]])?.first?["status"] as? String
        }
        #expect(statuses == ["needsToken", "none"])

        let missing = try devices(double, "--udid", "0000")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no device 0000 is attached"), "\(missing.stderr)")
    }

    /// `HOST:PORT` reaches a usbmuxd on TCP, as libusbmuxd reads the variable.
    @Test func aUsbmuxdOnTCPIsReachedByHostAndPort() throws {
        let double = try UsbmuxDouble(path: nil, devices: [Self.pad])
        let result = try devices(double, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""udid":"\#(Self.pad.udid)""#), "\(result.stdout)")
    }

    @Test func noDevicesSaysSo() throws {
        let double = try UsbmuxDouble(path: folder.socketPath("mux"))
        let result = try devices(double)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("No devices are attached: usbmuxd at \(folder.socketPath("mux")) sees none."))
        #expect(try devices(double, "--json").stdout == "[]\n")
    }

    @Test(arguments: [
        (UsbmuxDouble.Fault.closeMidMessage, "closed the connection in the middle of a header (after 7 of 16 bytes)"),
        (.hugeLength, "announced a message of 2147483648 bytes, over the 1 MiB this client reads; none of it was read"),
        (.damagedPlist, "usbmuxd sent a damaged property list: "),
        (.silent, "did not answer ListDevices in 5.0 seconds; is it stuck?"),
    ])
    func aBrokenUsbmuxdIsAClearErrorAndStatusOne(fault: UsbmuxDouble.Fault, words: String) throws {
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: [Self.phone], fault: fault)
        let result = try devices(double)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("jarvis: usbmuxd"), "\(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
    }

    @Test func aDeviceThatDetachesDuringConnectIsListedWithWhy() throws {
        let double = try UsbmuxDouble(path: folder.socketPath("mux"), devices: [Self.phone], fault: .detachOnConnect)
        let result = try devices(double)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "7777 failed: usbmuxd refused Connect to port 7777 of device 3: BadDevice (2): no such device is attached (it may have been unplugged)"
            ), "\(result.stdout)")
    }

    @Test func aMissingUsbmuxdSaysHowToGetOne() throws {
        sandbox.environmentOverrides["USBMUXD_SOCKET_ADDRESS"] = "UNIX:" + folder.socketPath("none")
        let result = try sandbox.run(Binaries.url("jarvis"), ["devices"], limit: 20)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "jarvis: usbmuxd is not running at \(folder.socketPath("none")) (its socket is missing); \(UsbmuxError.installHint)\n"
        )
        sandbox.environmentOverrides["USBMUXD_SOCKET_ADDRESS"] = "usbmuxd"
        let bad = try sandbox.run(Binaries.url("jarvis"), ["devices"], limit: 20)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("USBMUXD_SOCKET_ADDRESS=\"usbmuxd\" is not an address"), "\(bad.stderr)")
    }

    /// Debian's `iproxy` finds the device through the double and moves bytes through its
    /// tunnel to a TCP server: the double speaks the protocol libusbmuxd speaks.
    @Test(
        .enabled(
            if: OptionalTool.path("iproxy") != nil || linuxCI,
            OptionalTool.hint(["iproxy"], install: "apt-get install libusbmuxd-tools")),
        arguments: [false, true])
    func theRealIproxyTunnelsThroughTheDouble(onTCP: Bool) throws {
        let echo = try EchoServer()
        var phone = Self.phone
        phone.ports = [7777: echo.port]
        let double = try UsbmuxDouble(path: onTCP ? nil : folder.socketPath("mux"), devices: [Self.pad, phone])
        let probe = try Socket.listen(on: .tcp(host: "127.0.0.1", port: 0))
        let local = probe.boundPort ?? 0
        probe.close()

        let iproxy = Process()
        iproxy.executableURL = URL(fileURLWithPath: try #require(OptionalTool.path("iproxy")))
        iproxy.arguments = ["\(local):7777", "-u", phone.udid]
        iproxy.environment = ["USBMUXD_SOCKET_ADDRESS": double.address, "PATH": "/usr/bin:/bin"]
        iproxy.standardOutput = FileHandle.nullDevice
        iproxy.standardError = FileHandle.nullDevice
        try iproxy.run()
        defer {
            kill(iproxy.processIdentifier, SIGKILL)
            iproxy.waitUntilExit()
        }
        var tunnel: Socket?
        #expect(
            eventually(timeout: .seconds(10)) {
                tunnel = try? Socket.connect(to: .tcp(host: "127.0.0.1", port: local), timeout: .seconds(1))
                return tunnel != nil
            })
        let socket = try #require(tunnel)
        defer { socket.close() }
        try socket.writeAll(Array("through the phone\n".utf8), timeout: .seconds(5))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while received.count < 18, try socket.wait(for: Int16(POLLIN), until: .now + .seconds(10)) {
            let count = try buffer.withUnsafeMutableBytes { raw throws(SocketError) in try socket.read(into: raw) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == "through the phone\n")
        // iproxy asked for the device list, then connected to the phone's 7777 (0x1E61 as htons writes it).
        let connect = try #require(double.requests.last { $0.usbmuxString("MessageType") == "Connect" })
        #expect(connect.usbmuxNumber("DeviceID") == 3)
        #expect(connect.usbmuxNumber("PortNumber") == 0x611E)
        #expect(double.requests.contains { $0.usbmuxString("MessageType") == "ListDevices" })
    }

    /// Whether CI must run the tests of Debian's tools: on Linux, where .ci/run installs them.
    static let linuxCI: Bool = {
        #if canImport(Glibc)
            OptionalTool.inCI
        #else
            false
        #endif
    }()
    static let realUsbmuxd: String? =
        ["/usr/sbin/usbmuxd", "/usr/bin/usbmuxd"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? OptionalTool.path("usbmuxd")
    static let canRunRealUsbmuxd =
        (realUsbmuxd != nil && OptionalTool.path("unshare") != nil && getuid() == 0) || linuxCI
    /// Whether a child may have a mount namespace of its own (a container without
    /// CAP_SYS_ADMIN, as CI's may be, refuses it).
    static let mayUnshare = OptionalTool.succeeds("unshare", ["-m", "true"])

    /// Debian's usbmuxd with no device attached, in a mount namespace of its own whose /run is
    /// this test's folder, so its socket (`/var/run/usbmuxd` to it) appears here; where no
    /// namespace may be made (a CI container) and no usbmuxd runs, at /var/run/usbmuxd itself.
    @Test(
        .enabled(
            if: canRunRealUsbmuxd,
            OptionalTool.hint(
                ["usbmuxd", "unshare", "root"], install: "apt-get install usbmuxd util-linux, and run as root")))
    func theRealUsbmuxdListsNoDevicesAndAcceptsListen() throws {
        let usbmuxd = try #require(Self.realUsbmuxd)
        let daemon = Process()
        let socket: String
        if Self.mayUnshare {
            daemon.executableURL = URL(fileURLWithPath: try #require(OptionalTool.path("unshare")))
            daemon.arguments = [
                "-m", "sh", "-c", "mount --bind \"$0\" /run && exec \"$1\" -f -n -U root", folder.path, usbmuxd,
            ]
            socket = folder.socketPath("usbmuxd")
        } else {
            socket = UsbmuxAddress.defaultPath
            try #require(
                !FileManager.default.fileExists(atPath: socket),
                "no mount namespace may be made here (unshare -m), and \(socket) is taken: stop that usbmuxd")
            daemon.executableURL = URL(fileURLWithPath: usbmuxd)
            daemon.arguments = ["-f", "-n", "-U", "root"]
        }
        let log = Pipe()
        daemon.standardOutput = log
        daemon.standardError = log
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
            // Killed, the daemon leaves its socket and pid file; outside a namespace they are
            // the machine's, and were not there before.
            if !Self.mayUnshare { for file in [socket, socket + ".pid"] { unlink(file) } }
        }
        #expect(
            eventually(timeout: .seconds(10)) {
                // The file appears at bind, a moment before the daemon listens on it.
                let connected = try? Socket.connect(to: .unix(path: socket), timeout: .seconds(1), anyListener: true)
                connected?.close()
                return connected != nil || !daemon.isRunning
            },
            "usbmuxd listened on no socket")
        try #require(
            daemon.isRunning,
            "usbmuxd stopped: \(String(decoding: log.fileHandleForReading.availableData, as: UTF8.self))")

        let client = UsbmuxClient(endpoint: .unix(path: socket))
        #expect(try client.devices().isEmpty)
        let listener = try client.listen()
        #expect(try listener.next(until: .now + .milliseconds(300)) == nil)

        sandbox.environmentOverrides["USBMUXD_SOCKET_ADDRESS"] = "UNIX:" + socket
        let result = try sandbox.run(Binaries.url("jarvis"), ["devices"], limit: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("No devices are attached: usbmuxd at \(socket) sees none."), "\(result.stdout)")
        let json = try sandbox.run(Binaries.url("jarvis"), ["devices", "--json"], limit: 20)
        #expect(json.stdout == "[]\n")
    }
}
