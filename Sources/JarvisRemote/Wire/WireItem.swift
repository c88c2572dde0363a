import JarvisCore

/// The wire shape of items, shared by the agent, the client and the schema's results
/// (scanners and containers are ``Wire/Scanner`` and ``Wire/Container``).
package enum WireItem {
    /// `{"scanner","container","key","type","value","revision",…}`; a masked secret has no
    /// `value` but `masked`, `length` and `fingerprint`.
    package static func encode(_ item: PreferenceItem) -> JSONValue {
        var object: JSONObject = [
            "scanner": .string(item.address.scanner),
            "container": .string(item.address.container),
            "key": .string(item.address.key),
            "type": .string(item.type.rawValue),
        ]
        if let value = item.value { object["value"] = value.json }
        object["revision"] = .string(item.revision.text)
        if let mask = item.mask {
            object["masked"] = true
            object["length"] = .number(JSONNumber(mask.length))
            object["fingerprint"] = .string(mask.fingerprint)
        }
        if item.layer != .stored { object["layer"] = .string(item.layer.rawValue) }
        if let encoding = item.encoding { object["encoding"] = .string(encoding.rawValue) }
        if !item.isWritable { object["readOnly"] = true }
        encodeExtras(item, into: &object)
        return .object(object)
    }

    /// Reads an item sent by an agent.
    package static func decode(_ json: JSONValue) throws(JarvisError) -> PreferenceItem {
        guard case .object(let object) = json, let scanner = object["scanner"]?.stringValue,
            let container = object["container"]?.stringValue, let key = object["key"]?.stringValue,
            let typeName = object["type"]?.stringValue, let type = PreferenceType(rawValue: typeName),
            let revision = object["revision"]?.stringValue
        else {
            throw JarvisError(.storage, "the agent sent an item without scanner, container, key, type and revision")
        }
        var value: PreferenceValue?
        if let raw = object["value"] { value = try PreferenceValue(json: raw, as: type) }
        var mask: PreferenceItem.Mask?
        if object["masked"] == .bool(true) {
            mask = PreferenceItem.Mask(
                length: object["length"]?.int64Value.map(Int.init) ?? 0,
                fingerprint: object["fingerprint"]?.stringValue ?? "")
        }
        var item = PreferenceItem(
            address: PreferenceAddress(scanner: scanner, container: container, key: key),
            type: type, value: value, revision: Revision(revision),
            layer: object["layer"]?.stringValue.flatMap(ValueLayer.init(rawValue:)) ?? .stored,
            encoding: object["encoding"]?.stringValue.flatMap(ValueEncoding.init(rawValue:)),
            isWritable: object["readOnly"] != .bool(true), mask: mask)
        try decodeExtras(object, into: &item)
        return item
    }
}
