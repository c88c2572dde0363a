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
        var text =
            "Snapshot of \(snapshot.items.count) stored value(s) from agent \(MCPToolText.quoted(agent.name, limit: 64))"
        if !leftOut.isEmpty { text += "; \(leftOut.count) masked secret(s) left out" }
        text +=
            ". The document is in structuredContent.snapshot (pass it to diff_snapshots as from or to):\n"
            + MCPToolText.escapingLayout(JSONWriter.string(snapshot.json))
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
        let text =
            "--- \(MCPToolText.printable(sides[0].label))\n+++ \(MCPToolText.printable(sides[1].label))\n"
            + MCPToolText.diff(diff)
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
            return (path, try Self.readSnapshotFile(path, name: name))
        default:
            throw JarvisError(.invalidParams, "\(name) must be a snapshot document or a string")
        }
    }

    /// The largest snapshot file `diff_snapshots` reads.
    static let maxSnapshotFile = 16 << 20

    /// Reads a snapshot file a model named. Only `.json` files inside the folder the MCP client
    /// started the server in (its project) are read, never through a link out of it, and an
    /// error never quotes the file's content: a model could otherwise read any file this user
    /// can, a byte at a time, from the parse errors.
    static func readSnapshotFile(
        _ path: String, name: String, folder: String = FileManager.default.currentDirectoryPath
    )
        throws(JarvisError) -> JarvisSnapshot
    {
        let refusal = JarvisError(
            .invalidParams,
            "\(name): snapshot files are read only as .json files inside the project folder the server runs in; pass the snapshot document itself (from export_snapshot) instead"
        )
        guard path.hasSuffix(".json") else { throw refusal }
        let absolute = path.hasPrefix("/") ? path : folder + "/" + path
        guard let resolved = realpath(absolute, nil), let base = realpath(folder, nil) else { throw refusal }
        defer {
            free(resolved)
            free(base)
        }
        let file = String(cString: resolved)
        let root = String(cString: base)
        guard file.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { throw refusal }
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw JarvisError(.notFound, "\(name): cannot open \(path)") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxSnapshotFile
        else {
            throw JarvisError(.invalidParams, "\(name): \(path) is not a regular file of at most 16 MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let start = buffer.baseAddress else { return 0 }
                return read(descriptor, start + count, buffer.count - count)
            }
            guard got > 0 else { break }
            count += got
        }
        do {
            return try JarvisSnapshot(parsing: Array(bytes[..<count]), source: name)
        } catch {
            // The parser's message can quote the file's bytes: say only what the file is not.
            throw JarvisError(.invalidParams, "\(name): \(path) is not a Jarvis snapshot file (from jarvis export)")
        }
    }
}
