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
    /// The kernel's count of the folder's changes, where it hears of them all: while it
    /// stands, a name looked at is not looked at again. Nil: every look is an `lstat`.
    private let changes: FolderChanges?
    /// The plain names looked at since the folder's last change.
    private let quietLooks = Locked(QuietLooks())
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
    func alias(of relative: String) -> String? {
        // Only a link can lead to another name (asked for every suite read, for hide rules).
        if isPlainNonLink(relative) { return nil }
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
    private func isPlainNonLink(_ relative: String) -> Bool {
        guard !relative.containsByte(where: { $0 == UInt8(ascii: "/") }) else { return false }
        guard let status = look(at: relative) else { return errno == ENOENT }
        lastLook.withLock { $0 = LastLook(relative: relative, status: status, at: .now, isLent: false) }
        return status.st_mode & S_IFMT != S_IFLNK
    }

    /// The folder's change count (``FolderChanges/generation()``); nil where changes are not
    /// heard, or no longer.
    func changeGeneration() -> UInt64? {
        changes?.generation()
    }

    /// Whether `relative`'s last look is one taken at change count `generation` and kept
    /// (a plain file, watched): then it still describes the file.
    func isQuietlyKnown(_ relative: String, at generation: UInt64) -> Bool {
        quietLooks.withLock { $0.status(of: relative, at: generation) != nil }
    }

    /// The `lstat` of a plain name; while the kernel says the folder has not changed since a
    /// regular file's last look, that look. A missing name is looked at every time, as the
    /// stand-in names of hidden ones are, so the two cost alike. Nil with `errno` set when
    /// nothing is there.
    private func look(at relative: String) -> stat? {
        var status = stat()
        guard let changes, let generation = changes.generation() else {
            return lstat(realPrefix + relative, &status) == 0 ? status : nil
        }
        if let known = quietLooks.withLock({ $0.status(of: relative, at: generation) }) { return known }
        guard lstat(realPrefix + relative, &status) == 0 else { return nil }
        if status.st_mode & S_IFMT == S_IFREG, changes.watchFile(named: relative, inode: UInt64(status.st_ino)) {
            quietLooks.withLock { $0.remember(status, of: relative, at: generation) }
        }
        return status
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
    }

    /// The path with every link resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
