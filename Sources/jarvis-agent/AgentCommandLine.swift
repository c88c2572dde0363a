import Foundation
import JarvisRemote

/// The options of `jarvis-agent`, parsed by hand (the package takes no dependencies).
struct AgentCommandLine {
    var defaultsDirectories: [URL] = []
    var filesDirectories: [URL] = []
    var secretsDirectories: [URL] = []
    var secretService = false
    var demo = false
    /// `--simulator`: serve Simulator apps' suites; `--device` and `--app` narrow them.
    var simulator = false
    var device: String?
    var apps: [String] = []
    var production = false
    var allowReveal = false
    var readOnly = false
    var name: String?
    var help = false
    /// `--listen`: the TCP endpoint, loopback unless an address was typed.
    var listen: Endpoint?
    var maxConnections: Int?
    /// `--advertise`: announce the TCP listener with Bonjour (Apple platforms).
    var advertise = false
    /// `--token-file`: a fixed TCP token, for automation.
    var tokenFile: URL?
    var idleTimeout: Duration?
    var idleTimeoutGiven = false
    var authTimeout: Duration?

    static let usage = """
        jarvis-agent: serve the preferences of a program that does not embed Jarvis.

        Usage: jarvis-agent [--defaults-dir DIR]... [--files DIR]... [--secrets-dir DIR]... [--secret-service]
                            [--demo] [--production] [--read-only] [--allow-reveal] [--name NAME]
               jarvis-agent --simulator [--device UDID|NAME|booted] [--app ID]... [options]

          --defaults-dir DIR   serve every <suite>.plist in DIR as a defaults suite (repeatable)
          --files DIR          serve every *.json file under DIR, recursively, as a container of the
                               `files` scanner named by its path inside DIR (repeatable)
          --secrets-dir DIR    serve DIR as a folder of secret files, one file per secret (/run/secrets,
                               a Kubernetes secret volume, $CREDENTIALS_DIRECTORY) (repeatable)
          --secret-service     serve the desktop keyring's default collection (GNOME Keyring, KWallet)
                               through the Secret Service; on Apple platforms, the Keychain
          --simulator          serve the defaults suites of iOS Simulator apps (their Library/Preferences
                               and their App Groups'), named DEVICE/APP-OR-GROUP-ID/SUITE. A shut-down
                               device's files are edited directly; a booted device's through
                               `xcrun simctl spawn UDID defaults`, refused where xcrun does not exist
          --device SELECTOR    with --simulator: only `booted` devices, or the device with this UDID or name
          --app ID             with --simulator: only this bundle id or App Group id (glob; repeatable)
          --demo               serve sample data in a fresh temporary folder (one suite, private_data,
                               is hidden by the demo's configuration)
          --production         the production configuration: nothing can be changed
          --read-only          editing off, without the rest of production
          --allow-reveal       let clients see secret values (`jarvis get … --reveal`); refused
                               with --production
          --name NAME          the name clients see (default: jarvis-agent, or jarvis-demo with --demo)
          --listen [HOST:]PORT also serve TCP, on 127.0.0.1 unless HOST is given (0.0.0.0 for every
                               interface; port 0 picks a free one). Clients need the printed token.
                               The protocol is not encrypted: prefer loopback and an SSH tunnel.
          --token-file FILE    the TCP token to require, read from FILE (at least 16 characters), instead of
                               a fresh random one at every start: for scripts and CI
          --advertise          announce the TCP listener on the local network with Bonjour (_jarvis._tcp),
                               for `jarvis agents --network`; macOS and iOS only, needs --listen
          --max-connections N  clients served at once per transport (default 64)
          --idle-timeout SECS  close TCP clients silent this long (default 600; 0 never)
          --auth-timeout SECS  close TCP clients that have not authenticated by then (default 5)
          -h, --help           this help

        The agent runs until it receives SIGINT or SIGTERM, and prints how to connect.
        """

    init(_ arguments: [String]) throws(AgentUsageError) {
        var index = 0
        func value(for option: String) throws(AgentUsageError) -> String {
            guard index < arguments.count else { throw AgentUsageError("\(option) needs a value") }
            defer { index += 1 }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--defaults-dir":
                defaultsDirectories.append(URL(fileURLWithPath: try value(for: argument), isDirectory: true))
            case "--files":
                filesDirectories.append(URL(fileURLWithPath: try value(for: argument), isDirectory: true))
            case "--secrets-dir":
                secretsDirectories.append(URL(fileURLWithPath: try value(for: argument), isDirectory: true))
            case "--secret-service": secretService = true
            case "--demo": demo = true
            case "--simulator": simulator = true
            case "--device": device = try value(for: argument)
            case "--app": apps.append(try value(for: argument))
            case "--production": production = true
            case "--read-only": readOnly = true
            case "--allow-reveal": allowReveal = true
            case "--name": name = try value(for: argument)
            case "--listen": listen = try Self.listenEndpoint(try value(for: argument))
            case "--advertise": advertise = true
            case "--token-file": tokenFile = URL(fileURLWithPath: try value(for: argument))
            case "--max-connections":
                let text = try value(for: argument)
                guard let count = Int(text), count > 0 else {
                    throw AgentUsageError("--max-connections needs a positive number")
                }
                maxConnections = count
            case "--idle-timeout":
                let text = try value(for: argument)
                guard let seconds = Int(text), seconds >= 0 else {
                    throw AgentUsageError("--idle-timeout needs seconds, 0 for never")
                }
                idleTimeout = seconds == 0 ? nil : .seconds(seconds)
                idleTimeoutGiven = true
            case "--auth-timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw AgentUsageError("--auth-timeout needs seconds, more than 0 (e.g. 5 or 0.5)")
                }
                authTimeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
            case "-h", "--help": help = true
            default: throw AgentUsageError("unknown argument '\(argument)'")
            }
        }
        if listen == nil && (advertise || tokenFile != nil) {
            throw AgentUsageError("--advertise and --token-file are about TCP; add --listen [HOST:]PORT")
        }
        if !simulator && (device != nil || !apps.isEmpty) {
            throw AgentUsageError("--device and --app choose what --simulator serves; add --simulator")
        }
        if simulator && (demo || !defaultsDirectories.isEmpty) {
            throw AgentUsageError("--simulator serves the defaults scanner itself; drop --demo and --defaults-dir")
        }
    }
}

extension AgentCommandLine {
    /// `7777` means 127.0.0.1:7777; `HOST:PORT`, `[::1]:PORT` and `tcp://…` name the address.
    static func listenEndpoint(_ text: String) throws(AgentUsageError) -> Endpoint {
        if let port = UInt16(text) { return .tcp(host: "127.0.0.1", port: port) }
        let full = text.hasPrefix("tcp://") ? text : "tcp://" + text
        do {
            return try Endpoint(parsing: full)
        } catch {
            throw AgentUsageError("--listen \(text): \(error); use PORT, HOST:PORT or [IPv6]:PORT")
        }
    }
}

/// A mistake in how `jarvis-agent` was started.
struct AgentUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The token in `--token-file`: its text without surrounding white space.
func readToken(_ file: URL) -> String {
    guard let data = FileManager.default.contents(atPath: file.path) else {
        fail("--token-file \(file.path) cannot be read")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
