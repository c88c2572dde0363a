import Foundation

/// The options of `jarvis-agent`, parsed by hand (the package takes no dependencies).
struct AgentCommandLine {
    var defaultsDirectories: [URL] = []
    var secretsDirectories: [URL] = []
    var secretService = false
    var demo = false
    var production = false
    var allowReveal = false
    var readOnly = false
    var name: String?
    var help = false

    static let usage = """
        jarvis-agent: serve the preferences of a program that does not embed Jarvis.

        Usage: jarvis-agent [--defaults-dir DIR]... [--secrets-dir DIR]... [--secret-service] [--demo]
                            [--production] [--read-only] [--allow-reveal] [--name NAME]

          --defaults-dir DIR   serve every <suite>.plist in DIR as a defaults suite (repeatable)
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
            case "--secrets-dir":
                secretsDirectories.append(URL(fileURLWithPath: try value(for: argument), isDirectory: true))
            case "--secret-service": secretService = true
            case "--demo": demo = true
            case "--production": production = true
            case "--read-only": readOnly = true
            case "--allow-reveal": allowReveal = true
            case "--name": name = try value(for: argument)
            case "-h", "--help": help = true
            default: throw AgentUsageError("unknown argument '\(argument)'")
            }
        }
    }
}

/// A mistake in how `jarvis-agent` was started.
struct AgentUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
