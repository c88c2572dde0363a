#if canImport(SwiftUI)
    import JarvisInspector
    import SwiftUI

    /// A search binding that straightens the quotes a keyboard curled
    /// (``PanelTextTraits/straightened(_:)``): `searchable` has no switch for smart quotes.
    @MainActor func plainQuery(_ query: Binding<String>) -> Binding<String> {
        Binding(get: { query.wrappedValue }, set: { query.wrappedValue = PanelTextTraits.straightened($0) })
    }

    extension View {
        /// A search field that neither autocorrects nor capitalises: it matches stored text.
        @ViewBuilder func plainSearch() -> some View {
            #if os(iOS) || os(visionOS)
                self.autocorrectionDisabled().textInputAutocapitalization(.never)
            #else
                self.autocorrectionDisabled()
            #endif
        }
    }
#endif
