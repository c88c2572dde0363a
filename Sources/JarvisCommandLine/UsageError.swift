/// A mistake in how a command was typed: the tool prints the message and a hint, and exits
/// with status 64 (`EX_USAGE`), as swift-argument-parser's `ValidationError` does.
package struct UsageError: Error, Sendable, Hashable {
    /// What was wrong, for a person.
    package var message: String
    /// The subcommand it concerns, when there is one.
    package var command: String?

    /// A usage error saying `message`, about `command` when there is one.
    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The status a tool exits with on a usage error.
    package static let exitStatus: Int32 = 64
}
