import JarvisCore

/// The item members added with pointers, placeholders, write notes and the key catalog:
/// `pointer`, `placeholder`, `notes`, `default`, `description`, `allowed`, `range` and `unset`
/// (see docs/PROTOCOL.md, "Items").
extension WireItem {
    /// The members beyond the common ones, in wire order (part of ``describe(_:into:)``).
    static func describeExtras<Sink: WireItemSink>(_ item: PreferenceItem, into sink: inout Sink) {
        if let pointer = item.pointer { sink.string("pointer", pointer.description) }
        if item.isPlaceholder { sink.flag("placeholder") }
        if !item.notes.isEmpty { sink.json("notes", .array(item.notes.map(JSONValue.string))) }
        guard let note = item.catalog else { return }
        if note.isUnset { sink.flag("unset") }
        if let value = note.defaultValue { sink.value("default", value) }
        if let description = note.description { sink.string("description", description) }
        if let allowed = note.allowedValues { sink.json("allowed", .array(allowed.map(\.json))) }
        if let range = note.range {
            sink.json("range", .object(["min": number(range.lowerBound), "max": number(range.upperBound)]))
        }
    }

    static func decodeExtras(_ object: JSONObject, into item: inout PreferenceItem) throws(JarvisError) {
        if let text = object["pointer"]?.stringValue { item.pointer = try JSONPointer(parsing: text) }
        item.isPlaceholder = object["placeholder"] == .bool(true)
        item.notes = object["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let keys = ["unset", "default", "description", "allowed", "range"]
        guard keys.contains(where: { object[$0] != nil }) else { return }
        var note = CatalogNote(isUnset: object["unset"] == .bool(true))
        if let raw = object["default"] { note.defaultValue = try PreferenceValue(json: raw, as: item.type) }
        note.description = object["description"]?.stringValue
        if let raw = object["allowed"]?.arrayValue {
            var values: [PreferenceValue] = []
            for element in raw { values.append(try PreferenceValue(json: element, as: item.type)) }
            note.allowedValues = values
        }
        if let low = object["range"]?["min"]?.doubleValue, let high = object["range"]?["max"]?.doubleValue, low <= high
        {
            note.range = low...high
        }
        item.catalog = note
    }

    private static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 9e15 { return .number(JSONNumber(Int64(value))) }
        return JSONNumber(value).map(JSONValue.number) ?? .null
    }
}
