import Foundation
import JarvisCommandLine
import JarvisRemote

/// The options of `jarvis-agent`, read with the parser the three executables share.
struct AgentCommandLine {
    var defaultsDirectories: [URL] = []
    var filesDirectories: [URL] = []
    var secretsDirectories: [URL] = []
    var secretService = false
    var demo = false
    var production = false
    var allowReveal = false
    var readOnly = false
    var name: String?
    /// `--listen`: the TCP endpoint, loopback unless an address was typed.
    var listen: Endpoint?
    var maxConnections: Int?
    var idleTimeout: Duration?
    var idleTimeoutGiven = false

    static let usage = """
        jarvis-agent: serve the preferences of a program that does not embed Jarvis.

        Usage: jarvis-agent [--defaults-dir DIR]... [--files DIR]... [--secrets-dir DIR]... [--secret-service]
                            [--demo] [--production] [--read-only] [--allow-reveal] [--name NAME]

          --defaults-dir DIR   serve every <suite>.plist in DIR as a defaults suite (repeatable)
          --files DIR          serve every *.json file under DIR, recursively, as a container of the
                               `files` scanner named by its path inside DIR (repeatable)
          --secrets-dir DIR    serve DIR as a folder of secret files, one file per secret (/run/secrets,
                               a Kubernetes secret volume, $CREDENTIALS_DIRECTORY) (repeatable)
          --secret-service     serve the desktop keyring's default collection (GNOME Keyring, KWallet)
                               through the Secret Service; on Apple platforms, the Keychain
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
          --max-connections N  clients served at once per transport (default 64)
          --idle-timeout SECS  close TCP clients silent this long (default 600; 0 never)
          -h, --help           this help

        The agent runs until it receives SIGINT or SIGTERM, and prints how to connect.
        """

    /// Options that take a value; everything else starting with `--` is a flag.
    static let valued: Set<String> = [
        "--defaults-dir", "--files", "--secrets-dir", "--name", "--listen", "--max-connections", "--idle-timeout",
    ]

    /// The tool as its usage errors and `--help` name it.
    static let tool = CommandLineTool(name: "jarvis-agent", usage: usage)

    /// Reads the options; `--help` and usage errors end the program (status 0 and 64).
    static func parse(_ raw: [String]) -> AgentCommandLine {
        tool.parse(raw, valued: valued) { (arguments: inout CommandLineArguments) throws(UsageError) in
            try AgentCommandLine(&arguments)
        }
    }

    init(_ arguments: inout CommandLineArguments) throws(UsageError) {
        let folder = { (path: String) in URL(fileURLWithPath: path, isDirectory: true) }
        defaultsDirectories = arguments.values("--defaults-dir").map(folder)
        filesDirectories = arguments.values("--files").map(folder)
        secretsDirectories = arguments.values("--secrets-dir").map(folder)
        secretService = arguments.flag("--secret-service")
        demo = arguments.flag("--demo")
        production = arguments.flag("--production")
        readOnly = arguments.flag("--read-only")
        allowReveal = arguments.flag("--allow-reveal")
        name = arguments.option("--name")
        listen = try arguments.option("--listen").map { text throws(UsageError) in try Self.listenEndpoint(text) }
        maxConnections = try arguments.option(
            "--max-connections", expecting: "a positive number", CommandLineArguments.positive)
        if let seconds = try arguments.option(
            "--idle-timeout", expecting: "seconds, 0 for never", CommandLineArguments.nonNegative)
        {
            idleTimeout = seconds == 0 ? nil : .seconds(seconds)
            idleTimeoutGiven = true
        }
    }
}

extension AgentCommandLine {
    /// `7777` means 127.0.0.1:7777; `HOST:PORT`, `[::1]:PORT` and `tcp://…` name the address.
    static func listenEndpoint(_ text: String) throws(UsageError) -> Endpoint {
        if let port = UInt16(text) { return .tcp(host: "127.0.0.1", port: port) }
        let full = text.hasPrefix("tcp://") ? text : "tcp://" + text
        do {
            return try Endpoint(parsing: full)
        } catch {
            throw UsageError("--listen \(text): \(error); use PORT, HOST:PORT or [IPv6]:PORT")
        }
    }
}
