import Foundation
import JarvisCore

/// The journal file's lines: a header, then one JSON object per entry. A secret's values are
/// never written; its entry reads back with ``JarvisCore/JournalEntry/valuesKept`` false.
extension JournalFile {
    /// One entry's line, ending in a newline.
    static func line(_ entry: JarvisCore.JournalEntry) -> [UInt8] {
        var object: JSONObject = [
            "id": .integer(entry.id), "time": .string(DateText.format(entry.time)),
            "action": .string(entry.action.rawValue), "scanner": .string(entry.address.scanner),
            "container": .string(entry.address.container), "key": .string(entry.address.key),
        ]
        if let pointer = entry.pointer, !pointer.isWhole { object["pointer"] = .string(pointer.description) }
        if entry.isSecret {
            object["secret"] = .bool(true)
        } else if !entry.valuesKept {
            object["kept"] = .bool(false)
        } else {
            object.setIfPresent("before", entry.before.map(encode))
            object.setIfPresent("after", entry.after.map(encode))
        }
        object.setIfPresent("beforeRevision", entry.beforeRevision.map { .string($0.text) })
        object.setIfPresent("afterRevision", entry.afterRevision.map { .string($0.text) })
        if let client = entry.client {
            object["transport"] = .string(client.transport.rawValue)
            object["peer"] = .string(client.peer)
            object.setIfPresent("client", client.name.map(JSONValue.string))
        }
        object.setIfPresent("reverts", entry.reverts.map(JSONValue.integer))
        object.setIfPresent("place", entry.place.map(JSONValue.string))
        object.setIfPresent("group", entry.group.map(JSONValue.integer))
        object.setIfPresent("change", entry.change.map(JSONValue.string))
        if !entry.isSecret, let hint = entry.undoHint { object["hint"] = .string(Data(hint).base64EncodedString()) }
        return JSONWriter.bytes(.object(object)) + [10]
    }

    /// The entries of a whole file, oldest first; nil when any line is not the journal's.
    static func decode(_ bytes: [UInt8]) -> [JarvisCore.JournalEntry]? {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        // A complete file ends with a newline: the last piece is empty.
        guard lines.last?.isEmpty == true else { return nil }
        lines.removeLast()
        guard let first = lines.first, Array(first) + [10] == header else { return nil }
        var entries: [JarvisCore.JournalEntry] = []
        for line in lines.dropFirst() {
            guard let value = try? JSONParser.parse(Array(line)), let entry = entry(value) else { return nil }
            entries.append(entry)
        }
        return entries
    }

    private static func encode(_ value: PreferenceValue) -> JSONValue {
        .object(["type": .string(value.type.rawValue), "value": value.json])
    }

    private static func decodeValue(_ json: JSONValue?) -> PreferenceValue?? {
        guard let json else { return .some(nil) }
        guard let object = json.objectValue, let name = object["type"]?.stringValue,
            let type = PreferenceType(rawValue: name), let raw = object["value"],
            let value = try? PreferenceValue(json: raw, as: type)
        else { return nil }
        return .some(value)
    }

    private static func entry(_ json: JSONValue) -> JarvisCore.JournalEntry? {
        guard let object = json.objectValue, let id = object["id"]?.int64Value, id > 0,
            let time = object["time"]?.stringValue.flatMap(DateText.parse),
            let action = object["action"]?.stringValue, let scanner = object["scanner"]?.stringValue,
            let container = object["container"]?.stringValue, let key = object["key"]?.stringValue,
            let before = decodeValue(object["before"]), let after = decodeValue(object["after"])
        else { return nil }
        var pointer: JSONPointer?
        if let text = object["pointer"]?.stringValue {
            guard let parsed = try? JSONPointer(parsing: text) else { return nil }
            pointer = parsed
        }
        let secret = object["secret"]?.boolValue ?? false
        let kept = !secret && (object["kept"]?.boolValue ?? true)
        var client: AuditRecord.Client?
        if let transport = object["transport"]?.stringValue {
            client = AuditRecord.Client(
                transport: AuditRecord.Transport(rawValue: transport), peer: object["peer"]?.stringValue ?? "",
                name: object["client"]?.stringValue)
        }
        var entry = JarvisCore.JournalEntry(
            id: id, time: time, action: JarvisCore.JournalEntry.Action(rawValue: action),
            address: PreferenceAddress(scanner: scanner, container: container, key: key), pointer: pointer,
            before: before, after: after, beforeRevision: object["beforeRevision"]?.stringValue.map(Revision.init),
            afterRevision: object["afterRevision"]?.stringValue.map(Revision.init), client: client, isSecret: secret,
            valuesKept: kept, reverts: object["reverts"]?.int64Value, place: object["place"]?.stringValue)
        // A group is named by its first entry: never a later one (a file's other ids are ignored).
        if let group = object["group"]?.int64Value, group > 0, group <= id { entry.group = group }
        if case .string(let change)? = object["change"], !change.isEmpty, change.count <= 64 { entry.change = change }
        if let hint = object["hint"]?.stringValue {
            guard let bytes = Data(base64Encoded: hint) else { return nil }
            entry.undoHint = Array(bytes)
        }
        return entry
    }
}
