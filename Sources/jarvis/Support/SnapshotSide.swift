import Foundation
import JarvisCore
import JarvisRemote

/// One side of `jarvis diff` or the input of `jarvis import`: a snapshot file, or a live
/// agent (`agent:NAME|PID`, or `-` for the agent the command would talk to anyway).
struct SnapshotSide {
    /// How the side is named in output.
    var label: String
    /// Its stored values.
    var items: [PreferenceItem]
    /// The masked secrets a snapshot file left out: present, values unknown.
    var leftOut: [PreferenceAddress] = []

    /// Filters applied to both sides of a diff.
    struct Filters {
        var scanner: String?
        var container: String?
        var key: String?
    }

    /// Reads a side; a live agent's secrets stay masked unless the user asked with `--reveal`.
    static func load(_ spec: String, filters: Filters, reveal: Bool, context: Context) throws -> SnapshotSide {
        if spec == "-" || spec.hasPrefix("agent:") {
            let client: JarvisClient
            if spec == "-" {
                client = try context.connect()
            } else {
                let selector = String(spec.dropFirst("agent:".count))
                let endpoint = try AgentLocator.endpoint(for: selector)
                client = try JarvisClient(
                    endpoint: endpoint, clientName: "jarvis-cli",
                    token: context.token ?? AgentLocator.localToken(for: endpoint))
            }
            let (snapshot, masked) = try client.snapshot(
                scanner: filters.scanner, container: filters.container, key: filters.key, reveal: reveal)
            let hello = client.helloResult
            // Masked secrets take part as masked items: present, never shown.
            return SnapshotSide(label: "agent \(hello.agent) (pid \(hello.pid))", items: snapshot.items + masked)
        }
        let snapshot = try read(file: spec)
        return SnapshotSide(
            label: spec,
            items: snapshot.filtered(scanner: filters.scanner, container: filters.container, key: filters.key),
            leftOut: snapshot.leftOut(scanner: filters.scanner, container: filters.container, key: filters.key))
    }

    /// Reads a snapshot file.
    static func read(file path: String) throws -> JarvisSnapshot {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw JarvisError(.notFound, "cannot read \(path): \(error.localizedDescription)")
        }
        return try JarvisSnapshot(parsing: Array(data), source: path)
    }

    /// `scanner:container key`, escaped for the terminal.
    static func name(_ address: PreferenceAddress) -> String {
        Terminal.escaped(plainName(address))
    }

    /// `scanner:container key` as it is, for JSON output.
    static func plainName(_ address: PreferenceAddress) -> String {
        "\(address.scanner):\(address.container) \(address.key)"
    }

    /// A value for one diff line.
    static func show(_ item: PreferenceItem) -> String {
        ValueText.preview(item, limit: 60) + " (\(item.type))"
    }
}
