import Foundation
import JarvisCore
import JarvisSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The agent's journal kept on disk, so it survives a restart: one owner-only file of JSON
/// lines in the state folder (`$XDG_STATE_HOME/jarvis/journal` on Linux, else
/// `~/.local/state/jarvis/journal`; Application Support on Apple platforms), bounded in bytes
/// (rewritten with the newest entries when an append would pass the budget).
///
/// The file is chosen by what the agent serves, not by its name alone: its name is the agent's
/// name and a digest of its scanners' places (``PreferenceScanner/location``), so two agents of
/// one name serving different folders keep different journals, and the same program restarted
/// finds its own.
///
/// Every open, append and rewrite goes through a descriptor of the journal folder, never
/// through a link: before each write the file is checked on the open descriptor (a regular
/// file of this user, mode 0600 or tighter, one link). A file that is a link, another user's,
/// open to others or not a journal is set aside (renamed, never written through) with a
/// problem, at start or while the agent runs; the journal then goes on in memory only. A
/// secret's values are never written. Only one agent keeps a file at a time: a second agent
/// serving the same places (a lock file says so) keeps its journal in memory only.
package final class JournalFile: JournalStore {
    /// The journal file's path, for messages.
    package let path: String
    /// The file's name in its folder.
    let name: String
    /// The most bytes the file may hold.
    package let budget: Int
    /// The folder's and the lock file's descriptors, held while the agent runs (both -1 once
    /// closed or set aside); the lock guards the file's size too.
    private let state: Locked<(folder: Int32, lock: Int32, size: Int)>

    static let header: [UInt8] = Array(#"{"jarvisJournal":1}"#.utf8) + [10]

    private init(path: String, name: String, budget: Int, folder: Int32, lock: Int32, size: Int) {
        self.path = path
        self.name = name
        self.budget = budget
        state = Locked((folder, lock, size))
    }

    /// What opening the journal found.
    package struct Opened: Sendable {
        /// The file to append to; nil when the journal is kept in memory only.
        package var file: JournalFile?
        /// The entries it held, oldest first.
        package var entries: [JarvisCore.JournalEntry]
        /// What was wrong (a file set aside, a folder that could not be made).
        package var problems: [String]
    }

    /// The state folder's journal folder for this platform, from the environment.
    package static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            return base.appendingPathComponent("Jarvis/journal")
        #else
            if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
                return URL(fileURLWithPath: state).appendingPathComponent("jarvis/journal")
            }
            let home = environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(".local/state/jarvis/journal")
        #endif
    }

    /// The file name for an agent's name and the places it serves: the name's letters, digits,
    /// `.`, `-` and `_` (the rest `_`), then the first 16 hex digits of a SHA-256 of the places.
    static func fileName(for agent: String, places: [String]) -> String {
        let kept = agent.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let name = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let digest = SHA256.hash(Array(places.sorted().joined(separator: "\n").utf8)).prefix(8)
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        return (name.isEmpty ? "agent" : String(name.prefix(100))) + "-" + hex + ".journal"
    }

    /// Opens (or creates) the journal of the agent named `agent` serving `places` in `folder`.
    /// - Parameter places: one line per scanner (its id and place): what the file is chosen by.
    package static func load(folder: URL, agent: String, places: [String], budget: Int) -> Opened {
        let folderPath = folder.path
        guard makeFolders(folderPath), let directory = JournalFolder.open(folderPath) else {
            return Opened(
                file: nil, entries: [],
                problems: [
                    "the journal folder \(folderPath) could not be made or is not a private folder of this user (mode 0700); the journal is kept in memory only"
                ])
        }
        let name = fileName(for: agent, places: places)
        let path = folder.appendingPathComponent(name).path
        let lock = directory.openLock(name + ".lock")
        guard lock >= 0 else {
            directory.close()
            return Opened(
                file: nil, entries: [],
                problems: ["the journal's lock file \(path).lock could not be opened; the journal is kept in memory only"])
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            JournalFolder.closeDescriptor(lock)
            directory.close()
            return Opened(
                file: nil, entries: [],
                problems: [
                    "another agent named '\(agent)' serving the same places keeps the journal \(path); this one keeps its journal in memory only"
                ])
        }
        var problems: [String] = []
        var entries: [JarvisCore.JournalEntry] = []
        var size = 0
        switch directory.read(name, limit: budget) {
        case .missing: break
        case .refused(let reason):
            problems.append(directory.setAside(name, path: path, because: reason) + "; a new journal was started")
        case .read(let bytes):
            if let read = decode(bytes) {
                entries = read
                size = bytes.count
            } else {
                problems.append(
                    directory.setAside(name, path: path, because: "it is not a journal Jarvis can read (damaged)")
                        + "; a new journal was started")
            }
        }
        if size == 0 {
            do {
                try directory.replace(name, with: header)
                size = header.count
            } catch {
                JournalFolder.closeDescriptor(lock)
                directory.close()
                problems.append("the journal \(path) could not be written (\(error.message)); it is kept in memory only")
                return Opened(file: nil, entries: entries, problems: problems)
            }
        }
        let file = JournalFile(
            path: path, name: name, budget: budget, folder: directory.descriptor, lock: lock, size: size)
        return Opened(file: file, entries: entries, problems: problems)
    }

    /// Releases the file for the next agent serving the same places.
    package func close() {
        state.withLock { state in Self.release(&state) }
    }

    private static func release(_ state: inout (folder: Int32, lock: Int32, size: Int)) {
        if state.lock >= 0 { JournalFolder.closeDescriptor(state.lock) }
        if state.folder >= 0 { JournalFolder.closeDescriptor(state.folder) }
        state.lock = -1
        state.folder = -1
    }

    package func append(_ entries: [JarvisCore.JournalEntry], keeping: () -> [JarvisCore.JournalEntry]) -> String? {
        // An entry whose line alone passes the budget is kept in memory only.
        let line = entries.map(Self.line).filter { $0.count <= budget }.flatMap { $0 }
        guard !line.isEmpty else { return nil }
        // One writer at a time: the lock guards the size, and keeps appends and rewrites apart.
        return state.withLock { state -> String? in
            guard state.lock >= 0 else { return nil }
            let directory = JournalFolder(descriptor: state.folder, path: (path as NSString).deletingLastPathComponent)
            // Checked at every write: a link, another owner or a loosened mode found now sets
            // the file aside, and the journal goes on in memory.
            if let reason = directory.folderProblem() ?? directory.problem(of: name) {
                let problem = directory.setAside(name, path: path, because: reason)
                Self.release(&state)
                return problem + " while the agent ran; the journal is kept in memory only from now on"
            }
            if state.size + line.count <= budget {
                switch directory.append(line, to: name) {
                case .written:
                    state.size += line.count
                    return nil
                case .refused(let reason):
                    let problem = directory.setAside(name, path: path, because: reason)
                    Self.release(&state)
                    return problem + " while the agent ran; the journal is kept in memory only from now on"
                case .failed: break
                }
            }
            // Past the budget (or the append failed): the newest entries, up to half the budget,
            // so the next rewrite is far off.
            var kept: [[UInt8]] = []
            var total = Self.header.count
            for older in keeping().reversed() {
                let bytes = Self.line(older)
                let limit = kept.isEmpty ? budget : budget / 2
                guard total + bytes.count <= limit else { break }
                kept.append(bytes)
                total += bytes.count
            }
            do {
                try directory.replace(name, with: Self.header + kept.reversed().flatMap { $0 })
                state.size = total
            } catch {
                // The file stays as it was: entries past it are kept in memory only.
            }
            return nil
        }
    }

    private static func makeFolders(_ path: String) -> Bool {
        var parents: [String] = []
        var current = path
        while !PrivatePath.exists(current), current != "/", !current.isEmpty {
            parents.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in parents.reversed() { PrivatePath.makeFolder(folder) }
        return PrivatePath.folderProblem(path) == nil
    }
}
