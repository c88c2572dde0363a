import Foundation
import JarvisCore

/// The one symbolic-link policy of every file-backed scanner (`--defaults-dir`, `--files`,
/// `--secrets-dir`), written once:
///
/// - a link that stays inside the served folder is followed, for reading and writing;
/// - a link that leads outside is listed read-only and never written through;
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

    /// Where a name inside the folder really leads.
    enum Place: Equatable {
        /// Nothing is there (or a dangling link).
        case missing
        /// A file or a link whose target is inside the folder, at this path relative to it.
        case inside(String)
        /// A link whose target lies outside the folder.
        case outside(String)
    }

    /// - Parameter ignoresCase: nil asks the volume (Darwin's `_PC_CASE_SENSITIVE`; other
    ///   systems are taken as case-sensitive); tests pass a value to check the rule anywhere.
    init(_ url: URL, ignoresCase: Bool? = nil) {
        self.url = url
        realPath = Self.realPath(url.path) ?? url.standardizedFileURL.path
        self.ignoresCase = ignoresCase ?? VolumeCase.ignoresCase(at: url.path)
    }

    /// Where `relative` (a name or `a/b` path under the folder) really leads.
    func place(of relative: String) -> Place {
        guard let resolved = Self.realPath(url.appendingPathComponent(relative).path) else { return .missing }
        guard let inner = relativePath(of: resolved) else { return .outside(resolved) }
        return .inside(inner)
    }

    /// The name the stored thing has when `relative` is a link to another file inside the
    /// folder; nil when it is itself, missing, or outside.
    func alias(of relative: String) -> String? {
        guard case .inside(let target) = place(of: relative), target != relative else { return nil }
        return target
    }

    /// Whether `relative` is a link that leads outside the folder.
    func leadsOutside(_ relative: String) -> Bool {
        if case .outside = place(of: relative) { return true }
        return false
    }

    /// The path to write for `relative`: a link inside the folder is written through (its
    /// target replaced, the link kept), a missing name is created.
    /// - Throws: ``JarvisError`` `.readOnly` for a link that leads outside the folder.
    func writablePath(of relative: String, container: String) throws(JarvisError) -> String {
        switch place(of: relative) {
        case .missing: return url.appendingPathComponent(relative).path
        case .inside(let target): return URL(fileURLWithPath: realPath).appendingPathComponent(target).path
        case .outside(let target):
            throw JarvisError(
                .readOnly,
                "'\(container)' is a symbolic link to \(target), outside the served folder; Jarvis lists such links read-only and never writes through them (copy the file into the folder to edit it)"
            )
        }
    }

    private func relativePath(of resolved: String) -> String? {
        let root = realPath.hasSuffix("/") ? realPath : realPath + "/"
        guard resolved.hasPrefix(root) else { return nil }
        return String(resolved.dropFirst(root.count))
    }

    /// The path with every link resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
