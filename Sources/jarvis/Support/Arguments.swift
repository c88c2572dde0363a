/// A small command-line parser in the spirit of swift-argument-parser, written here because
/// the package takes no dependencies: flags, options with values, positionals, and `--`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var options: [String: String] = [:]
    private var consumed: Set<String> = []

    /// Options that take a value; everything else starting with `--` is a flag.
    static let valued: Set<String> = [
        "--agent", "--token", "--scanner", "--key", "--container", "--expect", "--name", "--match", "--defaults-dir",
        "--files", "--secrets-dir", "--listen", "--since", "--limit", "--format", "--output", "--timeout", "--action",
    ]

    init(_ raw: [String]) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < raw.count {
            let token = raw[index]
            index += 1
            if onlyPositionals || !token.hasPrefix("-") || token == "-" || Self.isNumber(token) {
                positionals.append(token)
                continue
            }
            if token == "--" {
                onlyPositionals = true
                continue
            }
            var name = token
            var inlineValue: String?
            if let equals = token.firstIndex(of: "="), token.hasPrefix("--") {
                name = String(token[..<equals])
                inlineValue = String(token[token.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if Self.valued.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < raw.count else { throw UsageError("\(name) needs a value") }
                    options[name] = raw[index]
                    index += 1
                }
            } else {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    /// No arguments at all.
    static let empty = Arguments()

    private init() {}

    /// Removes and returns the first positional: the command word.
    mutating func popCommand() -> String? {
        positionals.isEmpty ? nil : positionals.removeFirst()
    }

    /// Whether a flag was given.
    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// The value of an option, if given.
    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    /// Refuses flags and options the command did not ask about, and extra positionals.
    func finish(maxPositionals: Int, command: String) throws(UsageError) {
        if let unknown = (flags.union(options.keys)).subtracting(consumed).sorted().first {
            throw UsageError("\(command) has no option \(unknown)", command: command)
        }
        if positionals.count > maxPositionals {
            throw UsageError("unexpected argument '\(positionals[maxPositionals])'", command: command)
        }
    }

    private static func isNumber(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let next = token[token.index(after: token.startIndex)]
        return next.isNumber || next == "."
    }
}

/// A mistake in how the command was typed: exit status 64 and a hint.
struct UsageError: Error {
    var message: String
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
