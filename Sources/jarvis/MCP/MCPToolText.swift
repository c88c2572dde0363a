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
            if let value = catalog.defaultValue { notes.append("default " + delimited(value)) }
            if let allowed = catalog.allowedValues {
                notes.append("allowed: " + allowed.map(delimited).joined(separator: ", "))
            }
            if let range = catalog.range {
                notes.append("range \(number(range.lowerBound))...\(number(range.upperBound))")
            }
        }
        let meaning = item.catalog?.description.map { " — " + delimited(.string($0)) } ?? ""
        return "\(place(item)) = \(value(item)) (\(notes.joined(separator: ", ")))\(meaning)"
    }

    /// A stored value between « and », as JSON: its quotes and line breaks are escaped and any
    /// « or » inside it too, so no stored text can close the value early and pass for the
    /// tool's own words (a fake ` (string, revision …)` or a fake next line).
    static func value(_ item: PreferenceItem) -> String {
        if let mask = item.mask {
            return
                "«masked secret: \(mask.length) \(item.type == .string ? "characters" : "bytes"), fingerprint \(mask.fingerprint)»"
        }
        guard let value = item.value else { return "«no value»" }
        return delimited(value)
    }

    /// Any value as delimited JSON, at most about 400 characters.
    static func delimited(_ value: PreferenceValue) -> String {
        var json: String
        switch value {
        case .string(let text):
            json = JSONWriter.string(.string(String(text.prefix(200)))) + (text.count > 200 ? " …" : "")
        default:
            json = JSONWriter.string((try? value.plainJSON()) ?? value.json)
            if json.count > 400 { json = String(json.prefix(400)) + " …" }
        }
        return "«" + escapingLayout(json) + "»"
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
        problems.map { "problem in \($0.scanner):\(quoted($0.name)): \(printable($0.problem ?? ""))" }
            .joined(separator: "\n")
    }

    /// One audit record; its names and the client's name quoted (see ``quoted(_:limit:)``).
    static func record(_ record: Wire.HistoryRecord) -> String {
        let address = record.address
        let place = "\(address.scanner):\(quoted(address.container)) \(quoted(address.key))"
        return
            "\(DateText.format(record.time)) \(record.action) \(place) by \(clientName(record.client)) (\(record.transport)), "
            + (record.count.map { "\($0) secret(s) sent in clear" }
                ?? "revision \(printable(record.oldRevision ?? "none")) -> \(printable(record.newRevision ?? "none"))")
    }

    /// One journal entry: its id, the place, old → new (a secret's masked), who, and whether it
    /// can be undone; names quoted and values delimited as everywhere.
    static func journalEntry(_ entry: Wire.JournalEntry) -> String {
        let address = entry.address
        let place = "\(address.scanner):\(quoted(address.container)) \(quoted(address.key + (entry.pointer ?? "")))"
        let who = entry.transport == nil ? "outside" : "\(clientName(entry.client)) (\(entry.transport ?? ""))"
        return
            "#\(entry.id) \(DateText.format(entry.time)) \(entry.action) \(place): \(journalValue(entry.before)) -> \(journalValue(entry.after)) by \(who); "
            + (entry.undoable ? "can be undone" : "cannot be undone (\(printable(entry.reason ?? "")))")
    }

    /// A journal value: delimited, `(absent)`, or masked for a secret's.
    static func journalValue(_ value: Wire.JournalValue?) -> String {
        guard let value else { return "(absent)" }
        if let bytes = value.bytes { return "(a \(value.type.rawValue) of \(bytes) bytes, not shown)" }
        guard let shown = value.value else { return "(a secret \(value.type.rawValue), masked)" }
        return delimited(shown)
    }

    /// A diff, as `jarvis diff` prints it.
    static func diff(_ diff: SnapshotDiff) -> String {
        var lines: [String] = []
        for item in diff.added { lines.append("+ \(place(item)) = \(value(item)) (\(item.type))") }
        for item in diff.removed { lines.append("- \(place(item)) = \(value(item)) (\(item.type))") }
        for change in diff.changed {
            lines.append("~ \(place(change.new)): \(value(change.old)) → \(value(change.new)) (\(change.new.type))")
        }
        lines.append(
            "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed, \(diff.unchanged.count) unchanged"
        )
        return lines.joined(separator: "\n")
    }
}
