import Foundation
import JarvisCore

/// Putting a removed top-level member back exactly as and where it was: the removal leaves a
/// hint (``WriteResult/undoHint``) holding the bytes it took out and where, and a `set` that
/// brings the hint (an undo) puts those bytes back, byte for byte, when the file still reads as
/// it did with only that member missing. Otherwise the member is inserted as any new one is.
extension JSONFileEditor {
    /// The file's bytes without the top-level `key`, and the hint that puts it back; nil when
    /// there is no such key.
    func removingWithHint(_ key: String) -> (bytes: [UInt8], hint: [UInt8])? {
        guard let index = tree.root.items.firstIndex(where: { $0.key == key }) else { return nil }
        let edit = deletion(of: index, in: tree.root)
        let hint: JSONValue = .object([
            "at": .number(JSONNumber(Int64(edit.range.lowerBound))), "length": .number(JSONNumber(Int64(edit.replacement.count))),
            "text": .string(Data(text.bytes[edit.range]).base64EncodedString()),
        ])
        return (JSONTextEdit.apply([edit], to: text.bytes), JSONWriter.bytes(hint))
    }

    /// The file's bytes with `key` put back from `hint` as it was; nil when the key is there,
    /// the hint does not fit the file any more, or the result would not be exactly the file
    /// plus `key` set to `value`.
    func restoring(_ key: String, to value: PreferenceValue, hint: [UInt8]) -> [UInt8]? {
        guard self.value(of: key) == nil, let object = try? JSONParser.parse(hint).objectValue,
            let at = object["at"]?.int64Value.map(Int.init), let length = object["length"]?.int64Value.map(Int.init),
            let encoded = object["text"]?.stringValue, let removed = Data(base64Encoded: encoded),
            at >= 0, length >= 0, at <= text.bytes.count, length <= text.bytes.count - at
        else { return nil }
        let bytes = Array(text.bytes[..<at]) + Array(removed) + Array(text.bytes[(at + length)...])
        guard let restored = try? JSONFileEditor(bytes: bytes) else { return nil }
        let before = tree.root.items.compactMap(\.key)
        let after = restored.tree.root.items.compactMap(\.key)
        guard after.count == before.count + 1, Set(after) == Set(before + [key]),
            let member = restored.value(of: key), JSONFileValue.preferenceValue(member).0 == value,
            before.allSatisfy({ restored.value(of: $0) == self.value(of: $0) })
        else { return nil }
        return bytes
    }
}
