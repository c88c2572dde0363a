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
/// `~/.local/state/jarvis/journal`; Application Support on Apple platforms), named after the
/// agent, bounded in bytes (rewritten with the newest entries when an append would pass the
/// budget).
///
/// A secret's values are never written. A file that is a link, another user's, open to
/// others, larger than the budget or not a journal is set aside (renamed, never read or
/// written) with a problem. Only one agent keeps a file at a time: a second agent of the
/// same name (a lock file says so) keeps its journal in memory only.
package final class JournalFile: JournalStore {
    /// The journal file's path.
    package let path: String
    /// The most bytes the file may hold.
    package let budget: Int
    /// The lock file's descriptor, held while the agent runs; guards the file's size too.
    private let state: Locked<(lock: Int32, size: Int)>

    static let header: [UInt8] = Array(#"{"jarvisJournal":1}"#.utf8) + [10]

    private init(path: String, budget: Int, lock: Int32, size: Int) {
        self.path = path
        self.budget = budget
        state = Locked((lock, size))
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

    /// A file name for an agent's name: letters, digits, `.`, `-` and `_` kept, the rest `_`.
    static func fileName(for agent: String) -> String {
        let kept = agent.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let name = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return (name.isEmpty ? "agent" : String(name.prefix(100))) + ".journal"
    }

    /// Opens (or creates) the journal of the agent named `agent` in `folder`.
    package static func load(folder: URL, agent: String, budget: Int) -> Opened {
        var problems: [String] = []
        let folderPath = folder.path
        guard makeFolders(folderPath) else {
            return Opened(
                file: nil, entries: [],
                problems: [
                    "the journal folder \(folderPath) could not be made or is not a private folder of this user (mode 0700); the journal is kept in memory only"
                ])
        }
        let path = folder.appendingPathComponent(fileName(for: agent)).path
        let lock = openLockFile(path + ".lock")
        guard lock >= 0 else {
            return Opened(
                file: nil, entries: [],
                problems: ["the journal's lock file \(path).lock could not be opened; the journal is kept in memory only"])
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            closeFile(lock)
            return Opened(
                file: nil, entries: [],
                problems: [
                    "another agent named '\(agent)' keeps the journal \(path); this one keeps its journal in memory only"
                ])
        }
        var entries: [JarvisCore.JournalEntry] = []
        var size = 0
        if let refusal = refusal(path, budget: budget) {
            problems.append(setAside(path, because: refusal))
        } else if PrivatePath.exists(path) {
            if let bytes = PrivatePath.readOwnedFile(path, limit: budget), let read = decode(bytes) {
                entries = read
                size = bytes.count
            } else {
                problems.append(setAside(path, because: "it is not a journal Jarvis can read (damaged)"))
            }
        }
        if size == 0 {
            do {
                try PrivatePath.replaceFile(path, with: header, mode: 0o600)
                size = header.count
            } catch {
                closeFile(lock)
                problems.append("the journal \(path) could not be written (\(error.message)); it is kept in memory only")
                return Opened(file: nil, entries: entries, problems: problems)
            }
        }
        return Opened(file: JournalFile(path: path, budget: budget, lock: lock, size: size), entries: entries, problems: problems)
    }

    /// Releases the file for the next agent of the same name.
    package func close() {
        state.withLock { state in
            guard state.lock >= 0 else { return }
            closeFile(state.lock)
            state.lock = -1
        }
    }

    package func append(_ entries: [JarvisCore.JournalEntry], keeping: () -> [JarvisCore.JournalEntry]) {
        // An entry whose line alone passes the budget is kept in memory only.
        let line = entries.map(Self.line).filter { $0.count <= budget }.flatMap { $0 }
        guard !line.isEmpty else { return }
        // One writer at a time: the lock guards the size, and keeps appends and rewrites apart.
        state.withLock { state in
            guard state.lock >= 0 else { return }
            if state.size + line.count <= budget, Self.appendBytes(line, to: path) {
                state.size += line.count
                return
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
                try PrivatePath.replaceFile(path, with: Self.header + kept.reversed().flatMap { $0 }, mode: 0o600)
                state.size = total
            } catch {
                // The file stays as it was: entries past it are kept in memory only.
            }
        }
    }

    /// Why the file at `path` must not be trusted; nil when it is missing or may be read.
    private static func refusal(_ path: String, budget: Int) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        if type == UInt32(S_IFLNK) { return "it is a symbolic link" }
        guard type == UInt32(S_IFREG) else { return "it is not a regular file" }
        guard UInt32(info.st_uid) == PrivatePath.userID else { return "it belongs to another user (uid \(info.st_uid))" }
        guard UInt32(info.st_mode) & 0o077 == 0 else {
            return "others may read or write it (mode \(String(UInt32(info.st_mode) & 0o777, radix: 8)))"
        }
        guard Int(info.st_size) <= budget else { return "it holds \(info.st_size) bytes, more than the journal's budget of \(budget)" }
        return nil
    }

    /// Renames the file out of the way; returns the problem to report.
    private static func setAside(_ path: String, because reason: String) -> String {
        let stamp = DateText.format(Date()).replacingOccurrences(of: ":", with: "-")
        let aside = "\(path).set-aside-\(stamp)"
        if rename(path, aside) == 0 {
            return "the journal \(path) was set aside as \(aside): \(reason); a new journal was started"
        }
        PrivatePath.removeEntry(path)
        return "the journal \(path) was removed: \(reason), and it could not be renamed; a new journal was started"
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

    private static func appendBytes(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = openForAppend(path)
        guard descriptor >= 0 else { return false }
        defer { closeFile(descriptor) }
        do {
            try AtomicFile.writeAll(bytes, to: descriptor, name: path)
            return true
        } catch {
            return false
        }
    }
}

// Outside the type, whose own `close()` would hide the C library's.
private func openLockFile(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
}

private func openForAppend(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
}

private func closeFile(_ descriptor: Int32) {
    _ = close(descriptor)
}
