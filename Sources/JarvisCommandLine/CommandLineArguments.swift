/// A small command-line parser in the spirit of swift-argument-parser, shared by `jarvis`,
/// `jarvis-agent` and `jarvis-bench` (the package takes no dependencies): flags, options with
/// values (`--name VALUE` or `--name=VALUE`, repeatable), positionals, `--`, and `-h`.
///
/// A tool names the options that take a value; everything else starting with `--` is a flag.
/// The code that uses an option asks for it (``flag(_:)``, ``option(_:)``, ``values(_:)``),
/// and ``finish(maxPositionals:command:)`` then refuses whatever nobody asked about, so a
/// new flag is one line where it is read (and, if it takes a value, one word in `valued`).
package struct CommandLineArguments: Sendable {
    /// The arguments that are not options, in order.
    package private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var options: [String: [String]] = [:]
    private var consumed: Set<String> = []

    /// Splits `raw` (the arguments after the program's name).
    /// - Parameter valued: the options that take a value.
    /// - Throws: ``UsageError`` for an option without its value, or a flag given a value.
    package init(_ raw: [String], valued: Set<String>) throws(UsageError) {
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
            if valued.contains(name) {
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < raw.count else { throw UsageError("\(name) needs a value") }
                    options[name, default: []].append(raw[index])
                    index += 1
                }
            } else {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    /// No arguments at all.
    package static let empty = CommandLineArguments()

    private init() {}

    /// Removes and returns the first positional: a command word.
    package mutating func popCommand() -> String? {
        positionals.isEmpty ? nil : positionals.removeFirst()
    }

    /// Whether a flag was given.
    package mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// The value of an option (the last one, when it was given several times).
    package mutating func option(_ name: String) -> String? {
        values(name).last
    }

    /// Every value of a repeatable option, in order.
    package mutating func values(_ name: String) -> [String] {
        consumed.insert(name)
        return options[name] ?? []
    }

    /// The value of an option read by `parse`.
    /// - Parameter expecting: what the value must be, for the error: `--runs needs EXPECTING`.
    /// - Throws: ``UsageError`` when `parse` returns nil.
    package mutating func option<T>(_ name: String, expecting: String, _ parse: (String) -> T?) throws(UsageError)
        -> T?
    {
        guard let text = option(name) else { return nil }
        guard let value = parse(text) else { throw UsageError("\(name) needs \(expecting)") }
        return value
    }

    /// Refuses flags and options nobody asked about, and extra positionals.
    package func finish(maxPositionals: Int, command: String) throws(UsageError) {
        if let unknown = flags.union(options.keys).subtracting(consumed).sorted().first {
            // The options this command asked about are the ones it has.
            let known = consumed.filter { $0.hasPrefix("--") && $0 != "--help" }.sorted()
            let hint = Suggestion.phrase(for: unknown, among: known)
            throw UsageError("\(command) has no option \(unknown)" + (hint.isEmpty ? "" : "." + hint), command: command)
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

extension CommandLineArguments {
    /// A positive whole number (`--runs 3`).
    package static func positive(_ text: String) -> Int? {
        Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// A whole number of zero or more (`--idle-timeout 0`).
    package static func nonNegative(_ text: String) -> Int? {
        Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
