import Foundation
import JarvisCore
import JarvisSystem

/// The one symbolic-link policy and the one file-opening path of every file-backed scanner
/// (`--defaults-dir`, `--files`, `--secrets-dir`), written once:
///
/// - a name is resolved once, beneath the folder, relative to descriptors (see
///   ``resolve(_:)``); reads and writes then work on that folder descriptor and never follow a
///   link at the name, so a link swapped in mid-write is refused, never written through;
/// - a link that stays inside the served folder is followed, for reading and writing;
/// - a link that leads outside is listed read-only and never written through;
/// - only regular files are read, their size checked before reading, never more than a
///   scanner's limit read, and nothing is opened in a way that can block (a FIFO, a device);
/// - hide rules apply to what a link resolves to as well as to its name: the scanner reports
///   the target's name as an alias (``StoredNames``), so with `prod.json` hidden,
///   `current.json -> prod.json` is hidden too;
/// - where the volume ignores case, hide rules match without case (`PROD.json` opens
///   `prod.json`).
struct ServedFolder: Sendable {
    /// The folder as configured.
    let url: URL
    /// The folder with every link resolved; what "inside" is measured against.
    let realPath: String
    /// Whether the folder's volume treats names without regard to case.
    let ignoresCase: Bool
    /// The folder's path as configured, ending in a slash: the start of every path in it.
    let pathPrefix: String
    /// ``realPath`` ending in a slash.
    private let realPrefix: String
    /// Whether the folder as configured is its real path (no link on the way), so a look at
    /// a name through the one path is a look through the other.
    private let isConfiguredAtRealPath: Bool
    /// The last `lstat` that found a name in the folder, for ``recentStatus(of:)``.
    private let lastLook = Locked(LastLook())
    /// The kernel's count of the folder's changes, where it hears of them all: a look at a
    /// plain file it vouches for describes the file while the count stands. Nil: not heard.
    private let changes: FolderChanges?
    /// How long a look is lent to the next one: a `get` checks its suite's name for links
    /// (hide rules), then its file's version, microseconds apart.
    static let lookLifetime = Duration.milliseconds(5)

    /// Where a name inside the folder really leads.
    enum Place: Equatable {
        /// Nothing is there (or a dangling link).
        case missing
        /// A file or a link whose target is inside the folder, at this path relative to it.
        case inside(String)
        /// A link whose target lies outside the folder.
        case outside(String)
    }

    /// - Parameters:
    ///   - ignoresCase: nil asks the volume (Darwin's `_PC_CASE_SENSITIVE`; other systems are
    ///     taken as case-sensitive); tests pass a value to check the rule anywhere.
    ///   - hearsChanges: whether to take the kernel's word that a quiet folder is unchanged
    ///     (``FolderChanges``), for a scanner that looks at the same names on every request.
    init(_ url: URL, ignoresCase: Bool? = nil, hearsChanges: Bool = false) {
        self.url = url
        let path = url.path
        pathPrefix = path.hasSuffix("/") ? path : path + "/"
        realPath = Self.realPath(url.path) ?? url.standardizedFileURL.path
        realPrefix = realPath.hasSuffix("/") ? realPath : realPath + "/"
        isConfiguredAtRealPath = path == realPath
        changes = hearsChanges ? FolderChanges.watching(realPath) : nil
        self.ignoresCase = ignoresCase ?? VolumeCase.ignoresCase(at: url.path)
    }

    /// The folder's real path now: resolved again when the folder did not exist at start.
    var currentRealPath: String {
        FileManager.default.fileExists(atPath: realPath) ? realPath : (Self.realPath(url.path) ?? realPath)
    }

    /// Where `relative` lives, the same across runs: the folder's real path and the name.
    func location(of relative: String) -> String {
        let real = currentRealPath
        return (real.hasSuffix("/") ? real : real + "/") + relative
    }

    /// The path of `relative` in the folder as configured, joined as text: `URL`'s
    /// `appendingPathComponent` asks the file system whether it names a folder, a `stat` on
    /// every call.
    func path(of relative: String) -> String {
        pathPrefix + relative
    }

    /// Where `relative` (a name or `a/b` path under the folder) really leads, for listings and
    /// aliases. Writes and reads resolve again through ``resolve(_:)``, relative to descriptors.
    func place(of relative: String) -> Place {
        guard let resolution = try? resolve(relative) else { return .missing }
        switch resolution {
        case .missing: return .missing
        case .outside(let target): return .outside(target)
        case .inside(let slot):
            guard slot.status() != nil else { return .missing }
            return .inside(slot.display)
        }
    }

    /// The name the stored thing has when `relative` is a link to another file inside the
    /// folder; nil when it is itself, missing, or outside.
    /// - Parameter checkpoint: whether heard changes were read after the request (see
    ///   ``ChangeCheckpoint``).
    func alias(of relative: String, checkpoint: ChangeCheckpoint = .none) -> String? {
        // Only a link can lead to another name (asked for every suite read, for hide rules).
        if isPlainNonLink(relative, checkpoint: checkpoint) { return nil }
        guard case .inside(let target) = place(of: relative), target != relative else { return nil }
        return target
    }

    /// Whether `relative` is a link that leads outside the folder.
    ///
    /// Asked for every item a listing or a `get` serves, so a plain name (no `/`) that is not
    /// a link at all is answered by one `lstat` instead of a resolution through descriptors:
    /// only a link can lead outside. The answer only labels what is served (read-only);
    /// writes resolve the name again through ``resolve(_:)`` and never follow a link out.
    func leadsOutside(_ relative: String) -> Bool {
        if isPlainNonLink(relative) { return false }
        if case .outside = place(of: relative) { return true }
        return false
    }

    /// True when `relative` is a plain name (no `/`) and nothing there is a link, or nothing
    /// is there: then it leads nowhere but to itself, found with one `lstat`.
    private func isPlainNonLink(_ relative: String, checkpoint: ChangeCheckpoint = .none) -> Bool {
        guard !relative.containsByte(where: { $0 == UInt8(ascii: "/") }) else { return false }
        // The count first: a change after it moves it, so the look cannot outlive the change.
        let generation = changes?.generation(checkpoint)
        var status = stat()
        guard lstat(realPrefix + relative, &status) == 0 else { return errno == ENOENT }
        // A plain file, watched (so a change through another link to it is heard too).
        let vouched = generation.flatMap { count -> UInt64? in
            guard let changes, status.st_mode & S_IFMT == S_IFREG,
                changes.watchFile(named: relative, inode: UInt64(status.st_ino))
            else { return nil }
            return count
        }
        lastLook.withLock {
            $0 = LastLook(relative: relative, status: status, at: .now, isLent: false, vouchedAt: vouched)
        }
        return status.st_mode & S_IFMT != S_IFLNK
    }

    /// The folder's change count (``FolderChanges/generation(_:)``, given `checkpoint`); nil
    /// where changes are not heard, or no longer.
    func changeGeneration(_ checkpoint: ChangeCheckpoint = .none) -> UInt64? {
        changes?.generation(checkpoint)
    }

    /// Whether the last look, at `relative`, found a plain watched file at change count
    /// `generation`: while the count stands, that look still describes the file.
    /// Never when the folder was configured through a link: the reader's path could part
    /// from the looked-at one, as for ``recentStatus(of:)``.
    func isQuietlyKnown(_ relative: String, at generation: UInt64) -> Bool {
        guard isConfiguredAtRealPath else { return false }
        return lastLook.withLock { $0.vouchedAt == generation && $0.relative == relative }
    }

    /// What the `lstat` of `relative` found a moment ago (see ``lookLifetime``), handed out
    /// once: the same answer a second `lstat` made now would give but for a change within that
    /// moment, which a reader cannot tell from one made just after it. Nil when there is none,
    /// or when the folder was configured through a link (the paths could then part).
    func recentStatus(of relative: String) -> stat? {
        guard isConfiguredAtRealPath else { return nil }
        // Compared and handed out in place: copying the whole look out costs more than the rest.
        return lastLook.withLock { last in
            guard !last.isLent, last.relative == relative, ContinuousClock.now - last.at < Self.lookLifetime
            else { return nil }
            last.isLent = true
            return last.status
        }
    }

    /// The last `lstat` of a name, until it is lent once.
    private struct LastLook {
        var relative = ""
        var status = stat()
        var at = ContinuousClock.now
        var isLent = true
        /// The folder's change count the look was taken at, when it found a plain watched file.
        var vouchedAt: UInt64?
    }

    /// The path with every link resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
