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

    /// The whole answer to a `get`, `{"jsonrpc":"2.0","id":…,"result":{"item":…}}`, the bytes
    /// ``write(_:into:)`` and ``RPCResponse`` write, made in one allocation and with one copy
    /// per piece; nil when a piece needs more than copying (an escape, a value other than a
    /// string, a member beyond the common ones), which the caller then writes piece by piece.
    /// An answer written piece by piece cost a `get` more than its lookup.
    package static func getAnswer(id: JSONValue, item: PreferenceItem) -> [UInt8]? {
        guard item.pointer == nil, !item.isPlaceholder, item.notes.isEmpty, item.catalog == nil, item.mask == nil,
            item.layer == .stored, item.encoding == nil
        else { return nil }
        let idText: String
        let idQuoted: Bool
        switch id {
        case .number(let number): (idText, idQuoted) = (number.text, false)
        case .string(let text): (idText, idQuoted) = (text, true)
        default: return nil
        }
        let value: String?
        switch item.value {
        case nil: value = nil
        case .string(let text)?: value = text
        default: return nil
        }
        let scanner = item.address.scanner
        let container = item.address.container
        let key = item.address.key
        let type = item.type.rawValue
        // Exactly what is written below: each text with its two quotes, the revision's sixteen
        // digits with theirs.
        var length =
            Pieces.head.utf8CodeUnitCount + idText.utf8.count + (idQuoted ? 2 : 0) + Pieces.result.utf8CodeUnitCount
            + Members.scanner.utf8CodeUnitCount
            + scanner.utf8.count + 2 + Members.container.utf8CodeUnitCount + container.utf8.count + 2
            + Members.key.utf8CodeUnitCount + key.utf8.count + 2 + Members.type.utf8CodeUnitCount + type.utf8.count + 2
            + Members.revision.utf8CodeUnitCount + 18 + Pieces.tail.utf8CodeUnitCount
        if let value { length += Members.value.utf8CodeUnitCount + value.utf8.count + 2 }
        if !item.isWritable { length += Members.readOnly.utf8CodeUnitCount }
        // Written in a temporary buffer (on the stack when small), then copied into the
        // answer at once: an array made uninitialised found its storage type through the
        // runtime on every call.
        var line: [UInt8] = []
        line.reserveCapacity(length + 1)  // and the newline the transport adds
        var plain = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            guard let start = buffer.baseAddress else { return }
            var cursor = Cursor(at: start, end: start + length)
            cursor.raw(Pieces.head)
            guard cursor.text(idText, quoted: idQuoted) else { return plain = false }
            cursor.raw(Pieces.result)
            cursor.raw(Members.scanner)
            guard cursor.text(scanner) else { return plain = false }
            cursor.raw(Members.container)
            guard cursor.text(container) else { return plain = false }
            cursor.raw(Members.key)
            guard cursor.text(key) else { return plain = false }
            cursor.raw(Members.type)
            guard cursor.text(type) else { return plain = false }
            if let value {
                cursor.raw(Members.value)
                guard cursor.text(value) else { return plain = false }
            }
            cursor.raw(Members.revision)
            precondition(cursor.end - cursor.at >= 18, "a get's answer is longer than it was counted")
            guard item.revision.writeDigits(to: cursor.at + 1) else { return plain = false }
            cursor.at.pointee = UInt8(ascii: "\"")
            cursor.at[17] = UInt8(ascii: "\"")
            cursor.at += 18
            if !item.isWritable { cursor.raw(Members.readOnly) }
            cursor.raw(Pieces.tail)
            // The length above is exact: the tests hold every kind of piece to it.
            precondition(cursor.at - start == length, "a get's answer was not the length it was counted at")
            line.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
        }
        return plain ? line : nil
    }

    /// Where ``getAnswer(id:item:)`` writes next. Every write is checked against `end`: a miscounted length stops the agent rather than
    /// write past the buffer (the tests hold every kind of piece to the count).
    private struct Cursor {
        var at: UnsafeMutablePointer<UInt8>
        let end: UnsafeMutablePointer<UInt8>

        mutating func raw(_ text: StaticString) {
            precondition(end - at >= text.utf8CodeUnitCount, "a get's answer is longer than it was counted")
            memcpy(at, text.utf8Start, text.utf8CodeUnitCount)
            at += text.utf8CodeUnitCount
        }

        /// The text between quotes (or none), when it needs no escape; false (nothing
        /// written) when it does.
        mutating func text(_ text: String, quoted: Bool = true) -> Bool {
            let target = at
            let room = end - at
            let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Int? in
                precondition(room >= utf8.count + (quoted ? 2 : 0), "a get's answer is longer than it was counted")
                guard PlainByteScan.plainPrefixLength(UnsafeRawBufferPointer(utf8), stop: .writerEscapes) == utf8.count
                else { return nil }
                var next = target
                if quoted {
                    next.pointee = UInt8(ascii: "\"")
                    next += 1
                }
                if let base = utf8.baseAddress { memcpy(next, base, utf8.count) }
                next += utf8.count
                if quoted {
                    next.pointee = UInt8(ascii: "\"")
                    next += 1
                }
                return next - target
            }
            guard let written = copied ?? nil else { return false }
            at += written
            return true
        }
    }

    /// The answer's pieces around the item in ``getAnswer(id:item:)`` (the item's own are
    /// ``Members``).
    private enum Pieces {
        static let head: StaticString = #"{"jsonrpc":"2.0","id":"#
        static let result: StaticString = #","result":{"item":"#
        static let tail: StaticString = "}}}"
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
