import Foundation
import JarvisCore
import JarvisTransport

/// Finds running agents through their discovery files, and removes the files of dead ones.
///
/// Nothing planted is trusted: a folder is read only when it is this user's private folder,
/// a record only when it is a regular file of this user (never through a link), and a stale
/// record removes only itself and its socket, when that socket lies in the same folder.
public enum AgentDirectory {
    /// The agents running now for this user, oldest first: those of the runtime folder, then
    /// those inside the app containers of booted iOS Simulator devices (with ``AgentRecord/device``
    /// and ``AgentRecord/bundleID`` set).
    /// - Throws: ``JarvisError`` `.unavailable` when the runtime folder is a link, another
    ///   user's or open to others; the message names it and says how to fix it.
    public static func running(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(JarvisError) -> [AgentRecord]
    {
        let directory = RuntimeDirectory.current(environment: environment)
        var records = try directory.existsAndIsPrivate() ? records(in: directory) : []
        records += SimulatorAgents.running(home: SimulatorAgents.home(environment: environment))
        return records.sorted { ($0.started, $0.pid) < ($1.started, $1.pid) }
    }

    /// Drops, and removes as stale, each record that shares its ``AgentRecord/identity`` with
    /// another one and whose Unix socket no longer has a listener: the left-over of a previous
    /// run (its pid reused by some other process, so it looked alive). Two agents of one
    /// identity that both listen are both kept.
    private static func withoutLeftovers(_ records: [(record: AgentRecord, file: String)], in directory: RuntimeDirectory)
        -> [AgentRecord]
    {
        var counts: [String: Int] = [:]
        for (record, _) in records { counts[record.identity, default: 0] += 1 }
        return records.compactMap { record, file in
            guard counts[record.identity, default: 0] > 1, let socket = record.socket, !isListening(socket) else {
                return record
            }
            removeStale(record, file: file, in: directory)
            return nil
        }
    }

    /// Whether something accepts connections on the Unix socket `path`: a socket file whose
    /// agent is gone refuses at once.
    private static func isListening(_ path: String) -> Bool {
        do {
            let socket = try Socket.connect(to: .unix(path: path), timeout: .milliseconds(500))
            socket.close()
            return true
        } catch {
            return error.errno != ECONNREFUSED && error.errno != ENOENT
        }
    }

    /// The live records of one private folder (checked by the caller); stale ones are removed.
    package static func records(in directory: RuntimeDirectory) -> [AgentRecord] {
        let folder = directory.url.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var records: [(record: AgentRecord, file: String)] = []
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let bytes = PrivatePath.readOwnedFile(path), let json = try? JSONParser.parse(bytes),
                let record = AgentRecord(json: json)
            else { continue }
            guard isLive(record) else {
                removeStale(record, file: path, in: directory)
                continue
            }
            records.append((record, path))
        }
        return withoutLeftovers(records, in: directory)
    }

    /// A record is live while its process runs and, when it names a socket, that socket exists.
    private static func isLive(_ record: AgentRecord) -> Bool {
        guard ProcessProbe.isAlive(record.pid) else { return false }
        return record.socket.map(PrivatePath.exists) ?? true
    }

    /// Removes the record's own file, and its socket only when that is a socket of this user
    /// directly inside the record's folder or inside the agent's own short socket folder.
    private static func removeStale(_ record: AgentRecord, file: String, in directory: RuntimeDirectory) {
        PrivatePath.removeEntry(file)
        guard let socket = record.socket, PrivatePath.isOwnedSocket(socket) else { return }
        if directory.holds(socket) {
            PrivatePath.removeEntry(socket)
        } else if let folder = AgentPlacement.shortFolder(holding: socket) {
            PrivatePath.removeEntry(socket)
            PrivatePath.removeEmptyFolder(folder)
        }
    }

    /// Writes a discovery file, owner-only from its first byte: a new 0600 file made
    /// exclusively, written, then renamed into place.
    package static func publish(_ record: AgentRecord, at url: URL) throws(JarvisError) {
        let bytes = JSONWriter.bytes(record.json, pretty: true) + [0x0A]
        do {
            try PrivatePath.replaceFile(url.path, with: bytes, mode: 0o600)
        } catch {
            throw JarvisError(
                .storage,
                "cannot write the discovery file \(url.path): \(error.message); check that the runtime folder is writable"
            )
        }
    }
}
