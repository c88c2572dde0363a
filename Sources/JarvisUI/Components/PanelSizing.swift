#if canImport(SwiftUI)
    import JarvisInspector
    import SwiftUI

    /// Sizes the panel keeps the same everywhere.
    enum PanelSizing {
        /// The smallest side of anything tapped, in points (Apple's Human Interface Guidelines,
        /// "Accessibility": at least 44 × 44 pt on iOS).
        static let minimumTarget: CGFloat = 44
    }

    extension View {
        /// At least ``PanelSizing/minimumTarget`` tall, all of it tappable.
        func minimumTapTarget() -> some View {
            frame(minHeight: PanelSizing.minimumTarget).contentShape(Rectangle())
        }

        /// On macOS a multi-line editor (a scroll view) is as tall as the lines of its text,
        /// up to eight; on iOS the editor sizes itself (`sizeThatFits`).
        @ViewBuilder func editorHeight(_ text: String, kind: PanelTextTraits.Kind) -> some View {
            #if os(macOS)
                if PanelTextTraits(kind).isMultiline {
                    self.frame(height: CGFloat(PanelTextTraits.lines(for: text, columns: 60)) * 17 + 10)
                } else {
                    self
                }
            #else
                self
            #endif
        }
    }
#endif
