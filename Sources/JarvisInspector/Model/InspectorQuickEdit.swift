import Foundation
import JarvisCore

/// A change made with one key, without an editor: the next value follows from the one stored.
public enum InspectorQuickEdit: String, Sendable, Hashable {
    /// A boolean becomes its opposite (Space in the terminal).
    case toggle
    /// A catalogued choice moves to the catalog's next value, wrapping (Tab in the terminal).
    case nextChoice

    /// What a button that makes it says, as a person would say it: `Toggle`, `Next choice`.
    public var title: String {
        switch self {
        case .toggle: "Toggle"
        case .nextChoice: "Next choice"
        }
    }

    /// The quick edit a value of `type` offers, given the catalog's choices; nil for none.
    static func fitting(_ type: PreferenceType, choices: [PreferenceValue]) -> InspectorQuickEdit? {
        if !choices.isEmpty { return .nextChoice }
        return type == .boolean ? .toggle : nil
    }
}

extension ValueDraft {
    /// The text a quick edit saves, from the draft's starting text: the opposite boolean, or
    /// the catalog's choice after the current one (the first when the current one is not
    /// listed); nil when the draft's editor does not fit `quickEdit`.
    public func quickText(_ quickEdit: InspectorQuickEdit) -> String? {
        switch (quickEdit, editor) {
        case (.toggle, .toggle):
            return text.trimmingCharacters(in: .whitespaces).lowercased() == "true" ? "false" : "true"
        case (.nextChoice, .choice):
            let texts = choices.map(ValueFormat.editText)
            guard let first = texts.first else { return nil }
            guard let index = texts.firstIndex(of: text) else { return first }
            return texts[(index + 1) % texts.count]
        default:
            return nil
        }
    }
}
