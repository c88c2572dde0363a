import Foundation
import JarvisCore
import JarvisRemote

/// A snapshot ready to share as a file: `jarvis export`'s JSON, a `.json` file name that says
/// whose and when, and a sentence saying what it holds and how many secrets it left out.
public struct SnapshotShare: Sendable, Hashable {
    /// The snapshot's JSON text (the `jarvis-snapshot` format `jarvis import` and `diff` read).
    public var text: String
    /// The file name: `jarvis-<agent>-<yyyyMMdd-HHmmss>.json`, safe on every file system.
    public var fileName: String
    /// How many keys it holds.
    public var count: Int
    /// How many masked secrets it left out.
    public var leftOut: Int

    /// What the share sheet says about it, e.g. `12 keys; 2 secrets left out (a reveal to look
    /// is not consent to share)`.
    public var summary: String {
        let keys = "\(count) key\(count == 1 ? "" : "s")"
        switch leftOut {
        case 0: return keys + "; no secret left out"
        case 1: return keys + "; 1 secret left out (a reveal to look is not consent to share)"
        default: return keys + "; \(leftOut) secrets left out (a reveal to look is not consent to share)"
        }
    }

    /// Writes the file into `folder` (made if missing), replacing one of the same name.
    /// - Returns: the file's URL, for a share sheet.
    /// - Throws: ``JarvisError`` `.storage` when the folder cannot be written.
    public func write(into folder: URL) throws(JarvisError) -> URL {
        let url = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw JarvisError(.storage, "cannot write the snapshot to \(url.path): \(error.localizedDescription)")
        }
        return url
    }

    /// The file name for an agent's snapshot taken at `date` (UTC).
    static func fileName(agent: String, date: Date) -> String {
        let safe = agent.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "." ? String(scalar) : "-"
        }.joined()
        let name = safe.trimmingCharacters(in: CharacterSet(charactersIn: "-.")).prefix(60)
        let stamp = DateText.format(date).prefix(19).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "T", with: "-")
        return "jarvis-\(name.isEmpty ? "agent" : String(name))-\(stamp).json"
    }
}

extension InspectorSession {
    /// A snapshot of one scanner (nil: all) as a file to share; see ``snapshot(scanner:now:)``.
    public func snapshotShare(scanner: String? = nil, now: Date = Date()) -> SnapshotShare {
        let (text, leftOut) = snapshot(scanner: scanner, now: now)
        let state = self.state
        // Counted as the snapshot chooses: stored values, every secret left out (revealed or not).
        let count = state.items.values.filter { item in
            (scanner == nil || item.address.scanner == scanner) && !item.isMasked && !InspectorState.isUnset(item)
        }.count
        return SnapshotShare(
            text: text, fileName: SnapshotShare.fileName(agent: state.hello.agent, date: now), count: count,
            leftOut: leftOut)
    }
}
