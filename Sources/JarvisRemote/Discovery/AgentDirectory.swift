import Foundation
import JarvisCore

/// Finds running agents through their discovery files, and removes the files of dead ones.
public enum AgentDirectory {
    /// The agents running now for this user, oldest first. Files of processes that are gone
    /// are deleted along with their sockets; unreadable files are skipped.
    public static func running(environment: [String: String] = ProcessInfo.processInfo.environment) -> [AgentRecord] {
        let folder = RuntimeDirectory.current(environment: environment).url
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var records: [AgentRecord] = []
        for name in names where name.hasSuffix(".json") {
            let file = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file), let json = try? JSONParser.parse(data),
                let record = AgentRecord(json: json)
            else { continue }
            guard ProcessProbe.isAlive(record.pid), FileManager.default.fileExists(atPath: record.socket) else {
                try? FileManager.default.removeItem(at: file)
                try? FileManager.default.removeItem(atPath: record.socket)
                continue
            }
            records.append(record)
        }
        return records.sorted { ($0.started, $0.pid) < ($1.started, $1.pid) }
    }

    /// Writes a discovery file, owner-only, atomically.
    package static func publish(_ record: AgentRecord, at url: URL) throws(JarvisError) {
        let bytes = JSONWriter.bytes(record.json, pretty: true) + [0x0A]
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        let created = FileManager.default.createFile(
            atPath: temporary.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        guard created, rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw JarvisError(
                .storage, "cannot write the discovery file \(url.path); check that the runtime folder is writable")
        }
    }
}
