import Foundation
import JarvisCore

/// The wire shape of items, shared by the agent, the client and the schema's results
/// (scanners and containers are ``Wire/Scanner`` and ``Wire/Container``).
///
/// Which members an item has, in which order and with which guards, is said once, in
/// ``describe(_:into:)``; ``encode(_:)`` (a JSON tree, for answers built as trees) and
/// ``write(_:into:)`` (bytes, for the answer to a `get`) are that description read into two
/// sinks, and give the same JSON byte for byte.
package enum WireItem {
    /// `{"scanner","container","key","type","value","revision",…}`; a masked secret has no
    /// `value` but `masked`, `length` and `fingerprint`.
    package static func encode(_ item: PreferenceItem) -> JSONValue {
        var tree = TreeSink()
        describe(item, into: &tree)
        return .object(tree.object)
    }

    /// Writes what ``encode(_:)`` gives, byte for byte, without building it: the answer to a
    /// `get` is mostly this.
    package static func write(_ item: PreferenceItem, into line: inout [UInt8]) {
        // Swapped in and out, not copied: the line is appended to in place.
        var bytes = ByteSink()
        swap(&bytes.line, &line)
        describe(item, into: &bytes)
        bytes.close()
        swap(&bytes.line, &line)
    }

    /// The one description of an item's members, in wire order (docs/PROTOCOL.md, "Items").
    static func describe<Sink: WireItemSink>(_ item: PreferenceItem, into sink: inout Sink) {
        sink.string("scanner", item.address.scanner)
        sink.string("container", item.address.container)
        sink.string("key", item.address.key)
        sink.string("type", item.type.rawValue)
        if let value = item.value { sink.value("value", value) }
        sink.revision("revision", item.revision)
        if let mask = item.mask {
            sink.flag("masked")
            sink.integer("length", mask.length)
            sink.string("fingerprint", mask.fingerprint)
        }
        if item.layer != .stored { sink.string("layer", item.layer.rawValue) }
        if let encoding = item.encoding { sink.string("encoding", encoding.rawValue) }
        if !item.isWritable { sink.flag("readOnly") }
        describeExtras(item, into: &sink)
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
