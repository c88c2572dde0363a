import JarvisCommandLine

/// The command line of `jarvis`, parsed by the parser the three executables share.
typealias Arguments = CommandLineArguments

extension CommandLineArguments {
    /// Options of `jarvis` that take a value; everything else starting with `--` is a flag.
    static let valued: Set<String> = [
        "--agent", "--token", "--token-file", "--scanner", "--key", "--container", "--expect", "--name", "--match", "--defaults-dir",
        "--files", "--secrets-dir", "--listen", "--since", "--limit", "--format", "--output", "--timeout", "--action", "--type", "--port",
        "--force-at", "--to", "--agents", "--agents-timeout", "--udid",
    ]

    /// Splits the arguments of `jarvis`.
    init(_ raw: [String]) throws(UsageError) {
        try self.init(raw, valued: Self.valued)
    }
}

/// A mistake in how a command was typed: exit status 64 and a hint.
typealias UsageError = JarvisCommandLine.UsageError
