import Foundation
import JarvisCore
import JarvisRemote

/// `export_snapshot` and `diff_snapshots`.
extension MCPToolRunner {
    func exportSnapshot(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try bridge.agent(for: arguments.string("agent"))
        let (snapshot, leftOut) = try agent.client.snapshot(
            scanner: arguments.string("scanner"), container: arguments.string("container"),
            key: arguments.string("key"), reveal: try reveal(arguments, agent))
        let addresses = leftOut.map { item -> JSONValue in
            [
                "scanner": .string(item.address.scanner), "container": .string(item.address.container),
                "key": .string(item.address.key),
            ]
        }
        var text = "Snapshot of \(snapshot.items.count) stored value(s) from agent '\(agent.name)'"
        if !leftOut.isEmpty { text += "; \(leftOut.count) masked secret(s) left out" }
        text +=
            ". The document is in structuredContent.snapshot (pass it to diff_snapshots as from or to):\n"
            + JSONWriter.string(snapshot.json)
        return MCPToolResult(
            text: text, structured: .object(["snapshot": snapshot.json, "leftOut": .array(addresses)]))
    }

    func diffSnapshots(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let scanner = arguments.string("scanner")
        let container = arguments.string("container")
        let key = arguments.string("key")
        var sides: [(label: String, items: [PreferenceItem])] = []
        for name in ["from", "to"] {
            let side = try load(arguments.object[name] ?? .null, agent: arguments.string("agent"), name: name)
            sides.append((side.label, side.snapshot.filtered(scanner: scanner, container: container, key: key)))
        }
        let diff = SnapshotDiff(from: sides[0].items, to: sides[1].items)
        let text = "--- \(sides[0].label)\n+++ \(sides[1].label)\n" + MCPToolText.diff(diff)
        return MCPToolResult(text: text, structured: DiffCommand.json(diff))
    }

    /// One side: a snapshot document, a snapshot file, or an agent's live values (masked
    /// secrets left out: a diff never reveals).
    private func load(_ side: JSONValue, agent argument: String?, name: String) throws(JarvisError) -> (
        label: String, snapshot: JarvisSnapshot
    ) {
        switch side {
        case .object:
            return (
                "\(name) (a snapshot document)", try JarvisSnapshot(parsing: JSONWriter.bytes(side), source: "\(name)")
            )
        case .string(let text) where text == "agent" || text.hasPrefix("agent:"):
            let agent = try bridge.agent(for: text == "agent" ? argument : String(text.dropFirst("agent:".count)))
            let (snapshot, _) = try agent.client.snapshot()
            return ("agent \(agent.name) (pid \(agent.pid.map(String.init) ?? "?"))", snapshot)
        case .string(let path):
            do {
                return (path, try SnapshotSide.read(file: path))
            } catch let error as JarvisError {
                throw error
            } catch {
                throw JarvisError(.invalidParams, "cannot read the snapshot file \(path): \(error)")
            }
        default:
            throw JarvisError(.invalidParams, "\(name) must be a snapshot document or a string")
        }
    }
}
