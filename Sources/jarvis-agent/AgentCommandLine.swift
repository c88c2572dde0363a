import Foundation
import JarvisCommandLine
import JarvisCore
import JarvisRemote

/// The options of `jarvis-agent`, read with the parser the three executables share.
struct AgentCommandLine {
    var defaultsDirectories: [URL] = []
    var filesDirectories: [URL] = []
    /// `--exclude GLOB`: files and folders under `--files` left out (repeatable).
    var excluded: [GlobPattern] = []
    /// `--hide-container GLOB` and `--hide-key GLOB`: hide rules for every scanner (repeatable).
    var hiddenContainers: [GlobPattern] = []
    var hiddenKeys: [GlobPattern] = []
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
    var systemDomains = false
    var name: String?
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
    var requestTimeout: Duration?
    /// `--output-timeout`: how long a client may read nothing while its answer waits.
    var outputTimeout: Duration?
    /// `--journal-bytes`: the journal's byte budget, in memory and on disk.
    var journalBytes: Int?
    /// `--cache-bytes`: what each scanner's parsed files kept between reads may take.
    var cacheBytes: Int?

    static let usage = """
        jarvis-agent: serve the preferences of a program that does not embed Jarvis.

        Usage: jarvis-agent [--defaults-dir DIR]... [--files DIR]...
                            [--secrets-dir DIR]... [--secret-service] [--demo]
                            [--production] [--read-only] [--allow-reveal]
                            [--system-domains] [--name NAME]
               jarvis-agent --simulator [--device UDID|NAME|booted] [--app ID]...
                            [options]

          --defaults-dir DIR   serve every <suite>.plist in DIR as a defaults suite
                               (repeatable)
          --files DIR          serve every *.json and *.jsonc file under DIR,
                               recursively, as a container of the `files` scanner named
                               by its path inside DIR (repeatable)
          --exclude GLOB       leave out files and folders under --files whose path or
                               name matches (repeatable); node_modules, .git, build
                               folders are always left out
          --hide-container GLOB
                               hide every container whose name matches, in every
                               scanner, as if it did not exist (repeatable); a name
                               matches in any Unicode spelling (NFC, NFD)
          --hide-key GLOB      hide every key whose name matches, in every container
                               (repeatable)
          --secrets-dir DIR    serve DIR as a folder of secret files, one file per
                               secret (/run/secrets, a Kubernetes secret volume,
                               $CREDENTIALS_DIRECTORY) (repeatable)
          --secret-service     serve the desktop keyring's default collection (GNOME
                               Keyring, KWallet) through the Secret Service; on Apple
                               platforms, the Keychain
          --simulator          serve the defaults suites of iOS Simulator apps (their
                               Library/Preferences and their App Groups'), named
                               DEVICE/APP-OR-GROUP-ID/SUITE. A shut-down device's files
                               are edited directly; a booted device's through
                               `xcrun simctl spawn UDID defaults`, refused where xcrun
                               does not exist
          --device SELECTOR    with --simulator: only `booted` devices, or the device
                               with this UDID or name
          --app ID             with --simulator: only this bundle id or App Group id
                               (glob; repeatable)
          --demo               serve sample data in a fresh temporary folder (one suite,
                               private_data, is hidden by the demo's configuration)
          --production         the production configuration: nothing can be changed
          --read-only          editing off, without the rest of production
          --system-domains     show Apple's own defaults domains (com.apple.*,
                               .GlobalPreferences, NSGlobalDomain), hidden by default as
                               if absent
          --allow-reveal       let clients see secret values (`jarvis get … --reveal`);
                               refused with --production
          --name NAME          the name clients see (default: jarvis-agent, or
                               jarvis-demo with --demo)
          --listen [HOST:]PORT also serve TCP, on 127.0.0.1 unless HOST is given
                               (0.0.0.0 for every interface; port 0 picks a free one).
                               Clients need the printed token. The protocol is not
                               encrypted: prefer loopback and an SSH tunnel.
          --token-file FILE    the TCP token to require, read from FILE (at least 16
                               characters; a file of yours that only you may read, mode
                               0600), instead of a fresh random one at every start: for
                               scripts and CI
          --advertise          announce the TCP listener on the local network with
                               Bonjour (_jarvis._tcp), for `jarvis agents --network`;
                               macOS and iOS only, needs --listen
          --max-connections N  clients served at once per transport (default 64)
          --idle-timeout SECS  close TCP clients silent this long (default 600; 0 never)
          --auth-timeout SECS  close TCP clients that have not authenticated by then
                               (default 5)
          --request-timeout SECS
                               answer a request whose storage (a keyring, simctl, a
                               file) has not answered by then with a timeout error, to
                               its own client only (default 15)
          --output-timeout SECS
                               drop a client that read nothing this long while an
                               answer of 64 KiB or more waited for it (default 30)
          --journal-bytes N    the most bytes the journal of changes (what `jarvis undo`
                               takes back) holds, in memory and in its file in the
                               state folder (default 16777216; 0 keeps no journal)
          --cache-bytes N      the most bytes the parsed suites and JSON files kept
                               between reads take, per folder scanner (default
                               33554432); the files parsed longest ago go first
          -h, --help           this help

        The agent runs until it receives SIGINT or SIGTERM, and prints how to connect.
        """

    /// Options that take a value; everything else starting with `--` is a flag.
    static let valued: Set<String> = [
        "--defaults-dir", "--files", "--exclude", "--hide-container", "--hide-key", "--secrets-dir", "--name",
        "--listen", "--max-connections", "--idle-timeout", "--device", "--app", "--token-file", "--auth-timeout",
        "--request-timeout", "--output-timeout", "--journal-bytes", "--cache-bytes",
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
        excluded = arguments.values("--exclude").map { GlobPattern($0) }
        hiddenContainers = arguments.values("--hide-container").map { GlobPattern($0) }
        hiddenKeys = arguments.values("--hide-key").map { GlobPattern($0) }
        secretsDirectories = arguments.values("--secrets-dir").map(folder)
        secretService = arguments.flag("--secret-service")
        demo = arguments.flag("--demo")
        simulator = arguments.flag("--simulator")
        device = arguments.option("--device")
        apps = arguments.values("--app")
        production = arguments.flag("--production")
        readOnly = arguments.flag("--read-only")
        allowReveal = arguments.flag("--allow-reveal")
        systemDomains = arguments.flag("--system-domains")
        name = arguments.option("--name")
        listen = try arguments.option("--listen").map { text throws(UsageError) in try Self.listenEndpoint(text) }
        advertise = arguments.flag("--advertise")
        tokenFile = arguments.option("--token-file").map { URL(fileURLWithPath: $0) }
        maxConnections = try arguments.option(
            "--max-connections", expecting: "a positive number", CommandLineArguments.positive)
        if let seconds = try arguments.option(
            "--idle-timeout", expecting: "seconds, 0 for never", CommandLineArguments.nonNegative)
        {
            idleTimeout = seconds == 0 ? nil : .seconds(seconds)
            idleTimeoutGiven = true
        }
        if let seconds = try arguments.option(
            "--auth-timeout", expecting: "seconds, more than 0 (e.g. 5 or 0.5)",
            { Double($0).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } })
        {
            authTimeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
        }
        if let seconds = try arguments.option(
            "--request-timeout", expecting: "seconds, more than 0 (e.g. 15 or 0.5)",
            { Double($0).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } })
        {
            requestTimeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
        }
        if let seconds = try arguments.option(
            "--output-timeout", expecting: "seconds, more than 0 (e.g. 30 or 0.5)",
            { Double($0).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } })
        {
            outputTimeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
        }
        journalBytes = try arguments.option(
            "--journal-bytes", expecting: "a number of bytes, 0 for no journal", { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
        cacheBytes = try arguments.option(
            "--cache-bytes", expecting: "a number of bytes", { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
        if listen == nil && (advertise || tokenFile != nil) {
            throw UsageError("--advertise and --token-file are about TCP; add --listen [HOST:]PORT")
        }
        if !simulator && (device != nil || !apps.isEmpty) {
            throw UsageError("--device and --app choose what --simulator serves; add --simulator")
        }
        if simulator && (demo || !defaultsDirectories.isEmpty) {
            throw UsageError("--simulator serves the defaults scanner itself; drop --demo and --defaults-dir")
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

/// The token in `--token-file`: its text without surrounding white space, from a regular file
/// of this user's that nobody else may read (``TokenFile``).
func readToken(_ file: URL) -> String {
    do {
        return try TokenFile.read(file.path)
    } catch {
        fail("--token-file: \(error.message)")
    }
}
