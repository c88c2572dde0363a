import Foundation
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
        JSONWriter.writeRaw(Members.scanner, into: &line)
        JSONWriter.writeString(item.address.scanner, into: &line)
        JSONWriter.writeRaw(Members.container, into: &line)
        JSONWriter.writeString(item.address.container, into: &line)
        JSONWriter.writeRaw(Members.key, into: &line)
        JSONWriter.writeString(item.address.key, into: &line)
        JSONWriter.writeRaw(Members.type, into: &line)
        JSONWriter.writeString(item.type.rawValue, into: &line)
        if let value = item.value {
            JSONWriter.writeRaw(Members.value, into: &line)
            if case .string(let text) = value {
                JSONWriter.writeString(text, into: &line)
            } else {
                JSONWriter.write(value.json, into: &line)
            }
        }
        JSONWriter.writeRaw(Members.revision, into: &line)
        item.revision.writeJSON(into: &line)
        if let mask = item.mask {
            JSONWriter.writeRaw(Members.maskedLength, into: &line)
            line.append(contentsOf: String(mask.length).utf8)
            JSONWriter.writeRaw(Members.fingerprint, into: &line)
            JSONWriter.writeString(mask.fingerprint, into: &line)
        }
        if item.layer != .stored {
            JSONWriter.writeRaw(Members.layer, into: &line)
            JSONWriter.writeString(item.layer.rawValue, into: &line)
        }
        if let encoding = item.encoding {
            JSONWriter.writeRaw(Members.encoding, into: &line)
            JSONWriter.writeString(encoding.rawValue, into: &line)
        }
        if !item.isWritable { JSONWriter.writeRaw(Members.readOnly, into: &line) }
        line.append(UInt8(ascii: "}"))
    }

    /// The members' names as ``write(_:into:)`` puts them, each with what goes before it.
    private enum Members {
        static let scanner: StaticString = #"{"scanner":"#
        static let container: StaticString = #","container":"#
        static let key: StaticString = #","key":"#
        static let type: StaticString = #","type":"#
        static let value: StaticString = #","value":"#
        static let revision: StaticString = #","revision":"#
        static let maskedLength: StaticString = #","masked":true,"length":"#
        static let fingerprint: StaticString = #","fingerprint":"#
        static let layer: StaticString = #","layer":"#
        static let encoding: StaticString = #","encoding":"#
        static let readOnly: StaticString = #","readOnly":true"#
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
