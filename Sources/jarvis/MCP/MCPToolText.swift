import JarvisCore
import JarvisRemote

/// The text half of tool results: short lines a model reads well, one per item.
enum MCPToolText {
    /// `scanner:container key = value (type, revision …)` with what else matters.
    static func line(_ item: PreferenceItem) -> String {
        var notes = [item.type.rawValue, "revision \(item.revision.text)"]
        if item.isMasked { notes.append("secret, masked") }
        if !item.isWritable { notes.append("read-only") }
        if item.layer == .registered { notes.append("registered default") }
        if let catalog = item.catalog {
            if catalog.isUnset { notes.append("unset") }
            if let value = catalog.defaultValue { notes.append("default \(value.preview(limit: 40))") }
            if let allowed = catalog.allowedValues {
                notes.append("allowed: " + allowed.map { $0.preview(limit: 40) }.joined(separator: ", "))
            }
            if let range = catalog.range {
                notes.append("range \(number(range.lowerBound))...\(number(range.upperBound))")
            }
        }
        let value = item.value == nil && !item.isMasked ? "(no value)" : ValueText.preview(item, limit: 200)
        let meaning = item.catalog?.description.map { " — \($0)" } ?? ""
        return "\(Context.place(item)) = \(value) (\(notes.joined(separator: ", ")))\(meaning)"
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Items, one per line, under a count.
    static func lines(_ items: [PreferenceItem], empty: String) -> String {
        guard !items.isEmpty else { return empty }
        return "\(items.count) item(s):\n" + items.map(line).joined(separator: "\n")
    }

    /// Containers a listing could not read.
    static func problems(_ problems: [Wire.Container]) -> String {
        problems.map { "problem in \($0.scanner):\($0.name): \($0.problem ?? "")" }.joined(separator: "\n")
    }

    /// One audit record.
    static func record(_ record: Wire.HistoryRecord) -> String {
        let address = record.address
        return
            "\(DateText.format(record.time)) \(record.action) \(address.scanner):\(address.container) \(address.key) by \(record.client ?? "unnamed client") (\(record.transport)), revision \(record.oldRevision ?? "none") -> \(record.newRevision ?? "none")"
    }

    /// A diff, as `jarvis diff` prints it.
    static func diff(_ diff: SnapshotDiff) -> String {
        var lines: [String] = []
        for item in diff.added { lines.append("+ \(SnapshotSide.name(item.address)) = \(SnapshotSide.show(item))") }
        for item in diff.removed { lines.append("- \(SnapshotSide.name(item.address)) = \(SnapshotSide.show(item))") }
        for change in diff.changed {
            lines.append(
                "~ \(SnapshotSide.name(change.new.address)): \(SnapshotSide.show(change.old)) → \(SnapshotSide.show(change.new))"
            )
        }
        lines.append(
            "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed, \(diff.unchanged.count) unchanged"
        )
        return lines.joined(separator: "\n")
    }
}
