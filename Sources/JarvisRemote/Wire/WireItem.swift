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

    /// Writes what ``encode(_:)`` gives, byte for byte, without building it: the answer to a
    /// `get` is mostly this. An item with members beyond the common ones is encoded whole.
    package static func write(_ item: PreferenceItem, into line: inout [UInt8]) {
        guard item.pointer == nil, !item.isPlaceholder, item.notes.isEmpty, item.catalog == nil else {
            JSONWriter.write(encode(item), into: &line)
            return
        }
        line.append(contentsOf: Members.scanner)
        JSONWriter.writeString(item.address.scanner, into: &line)
        line.append(contentsOf: Members.container)
        JSONWriter.writeString(item.address.container, into: &line)
        line.append(contentsOf: Members.key)
        JSONWriter.writeString(item.address.key, into: &line)
        line.append(contentsOf: Members.type)
        JSONWriter.writeString(item.type.rawValue, into: &line)
        if let value = item.value {
            line.append(contentsOf: Members.value)
            if case .string(let text) = value {
                JSONWriter.writeString(text, into: &line)
            } else {
                JSONWriter.write(value.json, into: &line)
            }
        }
        line.append(contentsOf: Members.revision)
        item.revision.writeJSON(into: &line)
        if let mask = item.mask {
            line.append(contentsOf: Members.maskedLength)
            line.append(contentsOf: String(mask.length).utf8)
            line.append(contentsOf: Members.fingerprint)
            JSONWriter.writeString(mask.fingerprint, into: &line)
        }
        if item.layer != .stored {
            line.append(contentsOf: Members.layer)
            JSONWriter.writeString(item.layer.rawValue, into: &line)
        }
        if let encoding = item.encoding {
            line.append(contentsOf: Members.encoding)
            JSONWriter.writeString(encoding.rawValue, into: &line)
        }
        if !item.isWritable { line.append(contentsOf: Members.readOnly) }
        line.append(UInt8(ascii: "}"))
    }

    /// The members' names as ``write(_:into:)`` puts them, each with what goes before it.
    private enum Members {
        static let scanner = Array(#"{"scanner":"#.utf8)
        static let container = Array(#","container":"#.utf8)
        static let key = Array(#","key":"#.utf8)
        static let type = Array(#","type":"#.utf8)
        static let value = Array(#","value":"#.utf8)
        static let revision = Array(#","revision":"#.utf8)
        static let maskedLength = Array(#","masked":true,"length":"#.utf8)
        static let fingerprint = Array(#","fingerprint":"#.utf8)
        static let layer = Array(#","layer":"#.utf8)
        static let encoding = Array(#","encoding":"#.utf8)
        static let readOnly = Array(#","readOnly":true"#.utf8)
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
