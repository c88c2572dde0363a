import JarvisCore

/// The item members added with pointers, placeholders and the key catalog: `pointer`,
/// `placeholder`, `default`, `description`, `allowed`, `range` and `unset` (see
/// docs/PROTOCOL.md, "Items").
extension WireItem {
    static func encodeExtras(_ item: PreferenceItem, into object: inout JSONObject) {
        if let pointer = item.pointer { object["pointer"] = .string(pointer.description) }
        if item.isPlaceholder { object["placeholder"] = true }
        guard let note = item.catalog else { return }
        if note.isUnset { object["unset"] = true }
        if let value = note.defaultValue { object["default"] = value.json }
        if let description = note.description { object["description"] = .string(description) }
        if let allowed = note.allowedValues { object["allowed"] = .array(allowed.map(\.json)) }
        if let range = note.range {
            object["range"] = .object(["min": number(range.lowerBound), "max": number(range.upperBound)])
        }
    }

    static func decodeExtras(_ object: JSONObject, into item: inout PreferenceItem) throws(JarvisError) {
        if let text = object["pointer"]?.stringValue { item.pointer = try JSONPointer(parsing: text) }
        item.isPlaceholder = object["placeholder"] == .bool(true)
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
