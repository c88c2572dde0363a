#if canImport(SwiftUI)
    /// What differs between the platforms the panel runs on, in one place.
    enum PanelPlatform {
        /// Rows are selected (for the Delete key and the context menu) on macOS; on iOS a tap
        /// opens them.
        static var selectsRows: Bool {
            #if os(macOS)
                true
            #else
                false
            #endif
        }

        /// macOS has no pull to refresh: it gets a Reload button (⌘R).
        static var needsReloadButton: Bool {
            #if os(macOS)
                true
            #else
                false
            #endif
        }
    }
#endif
