#if canImport(SwiftUI) && canImport(AppKit) && os(macOS)
    import AppKit
    import JarvisInspector
    import SwiftUI

    /// A text field for key names, numbers, JSON and base64 with every automatic substitution
    /// off (smart quotes and dashes, text replacement, spelling correction): SwiftUI's
    /// `TextField` and `TextEditor` follow the system setting, and a curly quote breaks JSON
    /// and key names, so this wraps `NSTextField` and `NSTextView`.
    struct PlainTextInput: NSViewRepresentable {
        let title: String
        @Binding var text: String
        /// What the field edits: a value's text, base64 and JSON take several lines
        /// (`NSTextView` in a scroll view), the rest one (`NSTextField`). A Mac keyboard is the
        /// user's own whatever the kind.
        var kind: PanelTextTraits.Kind = .name

        private var multiline: Bool { PanelTextTraits(kind).isMultiline }

        func makeCoordinator() -> Coordinator { Coordinator(text: $text) }

        func makeNSView(context: Context) -> NSView {
            let font = NSFont.monospacedSystemFont(ofSize: NSFont.systemFontSize, weight: .regular)
            if multiline {
                let scroll = NSTextView.scrollableTextView()
                if let view = scroll.documentView as? NSTextView {
                    Coordinator.plain(view)
                    view.font = font
                    view.string = text
                    view.delegate = context.coordinator
                    view.setAccessibilityLabel(title)
                }
                scroll.borderType = .bezelBorder
                return scroll
            }
            let field = PlainNSTextField(string: text)
            field.placeholderString = title
            field.font = font
            field.delegate = context.coordinator
            field.setAccessibilityLabel(title)
            field.setContentHuggingPriority(.defaultLow, for: .horizontal)
            return field
        }

        func updateNSView(_ view: NSView, context: Context) {
            context.coordinator.text = $text
            if let scroll = view as? NSScrollView, let textView = scroll.documentView as? NSTextView,
                textView.string != text
            {
                textView.string = text
            }
            if let field = view as? NSTextField, field.stringValue != text { field.stringValue = text }
        }

        /// A text field that turns substitutions off in its field editor as it takes focus,
        /// before the first key reaches it.
        final class PlainNSTextField: NSTextField {
            override func becomeFirstResponder() -> Bool {
                let became = super.becomeFirstResponder()
                if let editor = currentEditor() as? NSTextView { Coordinator.plain(editor) }
                return became
            }
        }

        /// Copies what the user types into the binding, and turns substitutions off in the
        /// field editor each time one starts.
        @MainActor final class Coordinator: NSObject, NSTextViewDelegate, NSTextFieldDelegate {
            var text: Binding<String>

            init(text: Binding<String>) { self.text = text }

            static func plain(_ view: NSTextView) {
                view.isAutomaticQuoteSubstitutionEnabled = false
                view.isAutomaticDashSubstitutionEnabled = false
                view.isAutomaticTextReplacementEnabled = false
                view.isAutomaticSpellingCorrectionEnabled = false
                view.isContinuousSpellCheckingEnabled = false
                view.isAutomaticTextCompletionEnabled = false
            }

            func textDidChange(_ notification: Notification) {
                guard let view = notification.object as? NSTextView else { return }
                text.wrappedValue = view.string
            }

            func controlTextDidBeginEditing(_ notification: Notification) {
                guard let field = notification.object as? NSTextField,
                    let editor = field.currentEditor() as? NSTextView
                else { return }
                Self.plain(editor)
            }

            func controlTextDidChange(_ notification: Notification) {
                guard let field = notification.object as? NSTextField else { return }
                text.wrappedValue = field.stringValue
            }
        }
    }
#endif
