/// The methods an agent answers; the names are the wire contract in `docs/PROTOCOL.md`.
package enum AgentMethod: String, CaseIterable, Sendable {
    case hello
    case ping
    case scanners
    case containers
    case list
    case get
    case set
    case delete
    case reset
    case history
    case watch
    case unwatch
    case journal
    case undo
    case redo
    case restore
    case check

    /// Every method name, for error messages.
    package static var names: [String] { allCases.map(\.rawValue) }
}

/// The protocol version this build speaks. Clients and agents refuse a different major.
package enum ProtocolVersion {
    package static let current = "1.0"

    /// The major part of a version string, or nil if it is not `MAJOR.MINOR`.
    package static func major(of version: String) -> Int? {
        version.split(separator: ".").first.flatMap { Int($0) }
    }
}
