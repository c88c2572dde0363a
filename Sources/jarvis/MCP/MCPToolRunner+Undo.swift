import Foundation
import JarvisCore
import JarvisRemote

/// `undo_change` and `restore_preferences`: writing tools, refused where editing is off.
extension MCPToolRunner {
    func undoChange(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        let params = Wire.UndoParams(
            id: arguments.int("id").map { Int64($0) }, dryRun: arguments.bool("dryRun") ?? false,
            forceAt: arguments.string("forceAt"))
        let result = try perform(agent, params) { client throws(JarvisError) in
            try client.undo(params.id, dryRun: params.dryRun, forceAt: params.forceAt)
        }
        let undone = result.undone
        var text = "Entry: " + MCPToolText.journalEntry(undone)
        let restore = MCPToolText.journalValue(result.restore)
        if result.dryRun {
            text +=
                result.conflict
                ? "\nWould write nothing: the key changed since (now \(result.item.map(MCPToolText.value) ?? "absent"), revision \(MCPToolText.printable(result.item?.revision.text ?? Revision.absent.text)))."
                : "\nWould write back \(restore) (dry run: nothing was changed)."
        } else {
            text += "\nWrote back \(restore)" + (result.entry.map { " as entry #\($0.id)" } ?? "") + "."
        }
        return MCPToolResult(text: text, structured: result.json)
    }

    func restorePreferences(_ arguments: MCPArguments) throws(JarvisError) -> MCPToolResult {
        let agent = try writable(arguments)
        var params = Wire.RestoreParams(dryRun: arguments.bool("dryRun") ?? false)
        params.toEntry = arguments.int("toEntry").map { Int64($0) }
        if let time = arguments.string("toTime") {
            guard let date = DateText.parse(time) else {
                throw JarvisError(.invalidParams, "toTime must be an ISO 8601 time such as 2026-11-28T10:00:00Z")
            }
            params.toTime = date
        }
        guard (params.toEntry == nil) != (params.toTime == nil) else {
            throw JarvisError(.invalidParams, "give toEntry (a journal entry's id from preference_history) or toTime, one of them")
        }
        params.containers = arguments.strings("containers")
        let result = try perform(agent, params) { client throws(JarvisError) in try client.restore(params) }
        let lines = result.changes.map { change in
            "\(change.kind) \(change.address.scanner):\(MCPToolText.quoted(change.address.container)) \(MCPToolText.quoted(change.address.key)): \(MCPToolText.journalValue(change.now)) -> \(MCPToolText.journalValue(change.then))"
        }
        let head =
            result.changes.isEmpty
            ? "Nothing to restore: no key changed since then."
            : result.dryRun
                ? "Would restore \(result.changes.count) key(s) (dry run: nothing was changed):"
                : "Restored \(result.changes.count) key(s):"
        return MCPToolResult(text: ([head] + lines).joined(separator: "\n"), structured: result.json)
    }
}
