#if canImport(SwiftUI) && canImport(UIKit) && !os(watchOS)
    import JarvisInspector
    import SwiftUI
    import UIKit

    /// A text field that types exactly what the user means: no auto-capitalisation,
    /// autocorrection, smart quotes, dashes or spacing (SwiftUI's `TextField` has no modifier
    /// for smart quotes, `UITextInputTraits.smartQuotesType`, and a curly quote breaks JSON and
    /// key names), the keyboard ``PanelTextTraits`` chooses for what it edits, and, for a value,
    /// an editor that grows by a line as the text does.
    struct PlainTextInput: UIViewRepresentable {
        let title: String
        @Binding var text: String
        /// What the field edits: its keyboard and whether it may span lines.
        var kind: PanelTextTraits.Kind = .name

        private var traits: PanelTextTraits { PanelTextTraits(kind) }

        /// The monospaced font at the callout style's size for the default Dynamic Type size
        /// (16 pt), scaled once by `UIFontMetrics`: passing an already scaled font (from
        /// `preferredFont(forTextStyle:)`) would scale it twice.
        @MainActor static var font: UIFont {
            UIFontMetrics(forTextStyle: .callout).scaledFont(
                for: .monospacedSystemFont(ofSize: 16, weight: .regular))
        }

        func makeCoordinator() -> Coordinator { Coordinator(text: $text) }

        func makeUIView(context: Context) -> UIView {
            let input: UIView
            if traits.isMultiline {
                let view = UITextView()
                view.font = Self.font
                view.adjustsFontForContentSizeCategory = true
                view.backgroundColor = .clear
                view.text = text
                view.delegate = context.coordinator
                view.accessibilityLabel = title
                input = view
            } else {
                let field = UITextField()
                field.font = Self.font
                field.adjustsFontForContentSizeCategory = true
                field.placeholder = title
                field.text = text
                field.clearButtonMode = .whileEditing
                field.setContentHuggingPriority(.defaultLow, for: .horizontal)
                field.setContentCompressionResistancePriority(.defaultLow, for: .horizontal)
                field.addTarget(
                    context.coordinator, action: #selector(Coordinator.editingChanged(_:)), for: .editingChanged)
                field.delegate = context.coordinator
                field.accessibilityLabel = title
                input = field
            }
            Self.apply(traits, to: input)
            return input
        }

        /// The keyboard and the help it may give, as the model decided. `UITextField` and
        /// `UITextView` each declare these traits; the protocol's are optional requirements.
        @MainActor private static func apply(_ traits: PanelTextTraits, to input: UIView) {
            let help = traits.allowsTypingHelp
            let keyboard: UIKeyboardType
            switch traits.keyboard {
            case .standard: keyboard = .default
            case .ascii: keyboard = .asciiCapable
            // `.numbersAndPunctuation` has a minus key; `.decimalPad` has none.
            case .numbers: keyboard = .numbersAndPunctuation
            }
            if let field = input as? UITextField {
                field.autocapitalizationType = help ? .sentences : .none
                field.autocorrectionType = help ? .default : .no
                field.spellCheckingType = help ? .default : .no
                field.smartQuotesType = help ? .default : .no
                field.smartDashesType = help ? .default : .no
                field.smartInsertDeleteType = help ? .default : .no
                field.keyboardType = keyboard
            } else if let view = input as? UITextView {
                view.autocapitalizationType = help ? .sentences : .none
                view.autocorrectionType = help ? .default : .no
                view.spellCheckingType = help ? .default : .no
                view.smartQuotesType = help ? .default : .no
                view.smartDashesType = help ? .default : .no
                view.smartInsertDeleteType = help ? .default : .no
                view.keyboardType = keyboard
            }
        }

        func updateUIView(_ view: UIView, context: Context) {
            context.coordinator.text = $text
            if let view = view as? UITextView, view.text != text { view.text = text }
            if let field = view as? UITextField, field.text != text { field.text = text }
        }

        /// A multi-line editor is as tall as the lines its text wraps to (``PanelTextTraits``
        /// counts them, at most eight; past that it scrolls), so it grows as the value does.
        func sizeThatFits(_ proposal: ProposedViewSize, uiView: UIView, context: Context) -> CGSize? {
            guard let view = uiView as? UITextView, let width = proposal.width, width.isFinite else { return nil }
            let font = view.font ?? Self.font
            let inset = view.textContainerInset
            let usable = max(1, width - inset.left - inset.right - 2 * view.textContainer.lineFragmentPadding)
            // A monospaced font: every character is as wide as "M".
            let advance = max(1, ("M" as NSString).size(withAttributes: [.font: font]).width)
            let lines = PanelTextTraits.lines(for: text, columns: Int(usable / advance))
            let height = CGFloat(lines) * font.lineHeight + inset.top + inset.bottom
            return CGSize(width: width, height: max(44, height.rounded(.up)))
        }

        /// Copies what the user types into the binding.
        @MainActor final class Coordinator: NSObject, UITextViewDelegate, UITextFieldDelegate {
            var text: Binding<String>

            init(text: Binding<String>) { self.text = text }

            func textViewDidChange(_ textView: UITextView) {
                text.wrappedValue = textView.text ?? ""
            }

            @objc func editingChanged(_ field: UITextField) {
                text.wrappedValue = field.text ?? ""
            }

            func textFieldShouldReturn(_ field: UITextField) -> Bool {
                field.resignFirstResponder()
                return true
            }
        }
    }
#endif
