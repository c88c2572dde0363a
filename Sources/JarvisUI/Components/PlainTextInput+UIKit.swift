#if canImport(SwiftUI) && canImport(UIKit) && !os(watchOS)
    import SwiftUI
    import UIKit

    /// A text field for key names, numbers, JSON and base64: no auto-capitalisation, no
    /// autocorrection, no smart quotes, dashes or spacing. SwiftUI's `TextField` has no
    /// modifier for smart quotes (`UITextInputTraits.smartQuotesType`), and a curly quote
    /// breaks JSON and key names, so this wraps `UITextField` and `UITextView`.
    struct PlainTextInput: UIViewRepresentable {
        let title: String
        @Binding var text: String
        /// Several lines (`UITextView`) rather than one (`UITextField`).
        var multiline = false
        /// A keyboard with digits, a minus sign and both decimal separators.
        var number = false

        func makeCoordinator() -> Coordinator { Coordinator(text: $text) }

        func makeUIView(context: Context) -> UIView {
            let font = UIFontMetrics(forTextStyle: .body).scaledFont(
                for: .monospacedSystemFont(ofSize: UIFont.preferredFont(forTextStyle: .callout).pointSize, weight: .regular))
            if multiline {
                let view = UITextView()
                view.autocapitalizationType = .none
                view.autocorrectionType = .no
                view.spellCheckingType = .no
                view.smartQuotesType = .no
                view.smartDashesType = .no
                view.smartInsertDeleteType = .no
                view.font = font
                view.adjustsFontForContentSizeCategory = true
                view.backgroundColor = .clear
                view.text = text
                view.delegate = context.coordinator
                view.accessibilityLabel = title
                return view
            }
            let field = UITextField()
            field.autocapitalizationType = .none
            field.autocorrectionType = .no
            field.spellCheckingType = .no
            field.smartQuotesType = .no
            field.smartDashesType = .no
            field.smartInsertDeleteType = .no
            // `.numbersAndPunctuation` has a minus key; `.decimalPad` has none.
            field.keyboardType = number ? .numbersAndPunctuation : .asciiCapable
            field.font = font
            field.adjustsFontForContentSizeCategory = true
            field.placeholder = title
            field.text = text
            field.clearButtonMode = .whileEditing
            field.setContentHuggingPriority(.defaultLow, for: .horizontal)
            field.setContentCompressionResistancePriority(.defaultLow, for: .horizontal)
            field.addTarget(context.coordinator, action: #selector(Coordinator.editingChanged(_:)), for: .editingChanged)
            field.delegate = context.coordinator
            field.accessibilityLabel = title
            return field
        }

        func updateUIView(_ view: UIView, context: Context) {
            context.coordinator.text = $text
            if let view = view as? UITextView, view.text != text { view.text = text }
            if let field = view as? UITextField, field.text != text { field.text = text }
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
