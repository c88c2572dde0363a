#if canImport(SwiftUI) && os(watchOS)
    import JarvisInspector
    import SwiftUI

    /// On watchOS, text comes from dictation or scribble: the plainest field there is.
    struct PlainTextInput: View {
        let title: String
        @Binding var text: String
        var kind: PanelTextTraits.Kind = .name

        var body: some View {
            TextField(title, text: $text)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
        }
    }
#endif
