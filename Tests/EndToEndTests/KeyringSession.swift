import Foundation
import JarvisTestSupport

/// A private D-Bus session with its own GNOME Keyring, unlocked with a test password and
/// kept in temporary folders, so tests use a real Secret Service without touching the
/// user's keyring. It ends when the object goes away.
///
/// The session's shell waits on standard input: closing that pipe (or the test process
/// dying) ends `dbus-run-session`, which takes the bus and the keyring daemon with it.
final class KeyringSession {
    /// The variables every process of the session needs.
    let environment: [String: String]
    private let process: Process
    private let input = Pipe()
    /// The keyring daemon and bus daemon, read once the session is up.
    private var daemons: [Int32] = []

    static let tools = ["dbus-run-session", "dbus-send", "dbus-monitor", "gnome-keyring-daemon", "secret-tool"]

    /// Whether the tools are installed; otherwise the tests say what to install.
    static let isAvailable: Bool = tools.allSatisfy { path(of: $0) != nil }

    static let installHint =
        "needs dbus-run-session, dbus-send, dbus-monitor, gnome-keyring-daemon and secret-tool: apt-get install dbus gnome-keyring libsecret-tools"

    static func path(of tool: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the bus and the keyring under `root`.
    init(root: URL) throws {
        let home = root.appendingPathComponent("home")
        let runtime = root.appendingPathComponent("xdg-run")
        let address = root.appendingPathComponent("bus-address")
        let pids = root.appendingPathComponent("pids")
        for folder in [home, runtime] {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.removeValue(forKey: "GNOME_KEYRING_CONTROL")
        environment.removeValue(forKey: "DISPLAY")
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path(of: "dbus-run-session") ?? "/usr/bin/dbus-run-session")
        // An empty password would start a graphical prompter: always give one. The daemon may
        // return before it owns its bus name; wait for that, or a client would activate a second one.
        let ask =
            "dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus"
        let script = """
            printf testpass | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
            i=0
            until \(ask).NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do
              i=$((i+1)); [ $i -gt 400 ] && exit 1; sleep 0.05
            done
            pid() { \(ask).GetConnectionUnixProcessID string:$1 | awk '/uint32/ {print $2}'; }
            echo "$(pid org.freedesktop.secrets) $(pid org.freedesktop.DBus)" > '\(pids.path)'
            echo "$DBUS_SESSION_BUS_ADDRESS" > '\(address.path)'
            exec cat >/dev/null
            """
        process.arguments = ["--", "sh", "-c", script]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let log = root.appendingPathComponent("keyring-session.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var bus: String?
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOf: address, encoding: .utf8), text.hasSuffix("\n") {
                bus = text.trimmingCharacters(in: .whitespacesAndNewlines)
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let bus, !bus.isEmpty else {
            try? input.fileHandleForWriting.close()
            process.terminate()
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw HarnessError(
                "the private D-Bus session with gnome-keyring-daemon did not start within 30 s: \(output)")
        }
        let text = (try? String(contentsOf: pids, encoding: .utf8)) ?? ""
        daemons = text.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        self.environment = environment
    }

    deinit {
        try? input.fileHandleForWriting.close()
        // Children of a test process inherit its blocked signals (SIGTERM, SIGCHLD among them),
        // so neither `dbus-run-session` nor `kill` can stop the daemons gently: end the two
        // daemons this session started, by their ids, with SIGKILL.
        for pid in daemons where pid > 1 { kill(pid, SIGKILL) }
    }

    /// Stops (`paused` true) or continues the keyring daemon: while it is stopped, every
    /// Secret Service call waits, as it does on a keyring that waits for an unlock.
    func pauseKeyring(_ paused: Bool) {
        guard let keyring = daemons.first, keyring > 1 else { return }
        kill(keyring, paused ? SIGSTOP : SIGCONT)
    }

    /// Runs `secret-tool` in the session; `stdin` is the secret for `store`.
    @discardableResult
    func secretTool(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: Self.path(of: "secret-tool") ?? "/usr/bin/secret-tool")
        tool.arguments = arguments
        tool.environment = environment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        tool.standardInput = input
        tool.standardOutput = output
        tool.standardError = errors
        try tool.run()
        if let stdin { input.fileHandleForWriting.writeQuietly(stdin.utf8) }
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        return CommandResult(
            status: tool.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// The variables to hand to a `Sandbox` so its agents and clients join the session.
    var overrides: [String: String?] {
        [
            "DBUS_SESSION_BUS_ADDRESS": environment["DBUS_SESSION_BUS_ADDRESS"],
            "XDG_RUNTIME_DIR": environment["XDG_RUNTIME_DIR"],
            "HOME": environment["HOME"], "XDG_DATA_HOME": environment["XDG_DATA_HOME"], "DISPLAY": nil,
        ]
    }
}
