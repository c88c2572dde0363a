import JarvisCore

/// What a row offers to copy: its key, its value as text and its place as a JSON Pointer
/// (the form `jarvis get CONTAINER /key/member` takes).
public struct RowCopies: Sendable, Hashable {
    /// The key's name (for a member, the key it is inside), or a scanner's or container's name.
    public var key: String
    /// The value as editor text; nil for a masked secret, an unset key or a scanner or container.
    public var value: String?
    /// The place as a JSON Pointer whose first token is the key; nil for a scanner or container.
    public var pointer: String?
}

extension InspectorState {
    /// What a row offers to copy. A masked secret offers no value: copying the mask would
    /// paste bullets where the user expects the secret.
    /// - Parameter limit: the longest value text copied, in characters.
    public func copies(_ target: InspectorRow.Target, limit: Int = 256 * 1024) -> RowCopies {
        switch target {
        case .scanner(let id):
            return RowCopies(key: id, value: nil, pointer: nil)
        case .container(_, let name):
            return RowCopies(key: name, value: nil, pointer: nil)
        case .key(let address), .member(let address, _):
            let pointer = target.pointer
            let place = JSONPointer(tokens: [address.key] + pointer.tokens).description
            let text = value(at: address, pointer).map { value -> String in
                switch value {
                case .array, .dictionary: return ValueFormat.full(value, limit: limit)
                default: return String(ValueFormat.editText(value).prefix(limit))
                }
            }
            return RowCopies(key: address.key, value: text, pointer: place)
        }
    }
}

extension InspectorRow {
    /// Whether ``InspectorState/copies(_:limit:)`` gives this row a value, known without
    /// rendering it (a menu offers "Copy value" from this; the text is made when chosen).
    public var hasCopyableValue: Bool {
        switch target {
        case .scanner, .container: return false
        case .key: return !has(.masked) && !has(.unset)
        case .member: return true
        }
    }
}

extension RowCopies {
    /// One of the texts a row copies.
    public enum Part: String, Sendable, CaseIterable {
        /// The key's name.
        case key
        /// The value as editor text.
        case value
        /// The JSON Pointer.
        case pointer
    }

    /// The text of `part`; nil when the row has none.
    public func text(_ part: Part) -> String? {
        switch part {
        case .key: return key
        case .value: return value
        case .pointer: return pointer
        }
    }
}

extension InspectorMessage {
    /// What a face says after copying a row's text: `Copied the pointer of theme`.
    public static func copied(_ part: RowCopies.Part, of title: String) -> InspectorMessage {
        InspectorMessage("Copied the \(part.rawValue) of \(title)")
    }
}
