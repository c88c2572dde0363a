import Foundation

extension ValueDraft {
    /// Whether `typed` (in `locale`, as the editor shows it) differs from the text the editor
    /// started with: a swipe-down or a close must ask before it discards such an edit.
    public func isEdited(_ typed: String, locale: Locale) -> Bool {
        typed != startText(locale: locale)
    }

    /// The kind of text field this draft is typed in, or nil when its editor is no text field
    /// (a switch, a picker, a date picker).
    public var textKind: PanelTextTraits.Kind? {
        switch editor {
        case .text: return .text
        case .integer, .real: return .number
        case .data: return .base64
        case .json: return .json
        case .toggle, .choice, .date: return nil
        }
    }
}
