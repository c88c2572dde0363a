extension InspectorCopy {
    /// One of the texts a row copies (a menu item each).
    public enum Part: String, Sendable, CaseIterable {
        /// The key's name.
        case key
        /// The value as editor text.
        case value
        /// The JSON Pointer.
        case pointer
    }

    /// The text of `part`; nil when the row has none (a masked or unset value).
    public func text(_ part: Part) -> String? {
        switch part {
        case .key: return key
        case .value: return value
        case .pointer: return pointer
        }
    }
}

extension InspectorRow {
    /// Whether ``InspectorState/copyTexts(for:agent:)`` gives this row a value, known without
    /// rendering it (a menu offers "Copy value" from this; the text is made when chosen).
    public var hasCopyableValue: Bool {
        switch target {
        case .scanner, .container: return false
        case .key: return !has(.masked) && !has(.unset)
        case .member: return true
        }
    }
}

extension InspectorMessage {
    /// What a face says after copying a row's text: `Copied the pointer of theme`.
    public static func copied(_ part: InspectorCopy.Part, of title: String) -> InspectorMessage {
        InspectorMessage("Copied the \(part.rawValue) of \(title)")
    }
}
