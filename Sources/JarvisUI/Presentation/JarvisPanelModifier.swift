#if canImport(SwiftUI)
    import JarvisInspector
    import JarvisRemote
    import SwiftUI

    extension View {
        /// Presents the Jarvis panel over this view: on iOS when the device is shaken, on macOS
        /// with ⌥⌘J, and whenever `isPresented` becomes true.
        /// - Parameters:
        ///   - agent: the agent this app started (`JarvisAgent.start`).
        ///   - isPresented: a binding that also opens and closes it; nil uses the gesture only.
        public func jarvisPanel(agent: JarvisAgent, isPresented: Binding<Bool>? = nil) -> some View {
            modifier(JarvisPanelModifier(makeSource: { InProcessSource(agent: agent) }, external: isPresented))
        }

        /// Presents the Jarvis panel on any source (for example a ``RemoteSource``).
        public func jarvisPanel(
            source: @escaping @Sendable () -> any InspectorSource, isPresented: Binding<Bool>? = nil
        ) -> some View {
            modifier(JarvisPanelModifier(makeSource: source, external: isPresented))
        }
    }

    /// Opens the panel on a shake, a shortcut or a binding.
    struct JarvisPanelModifier: ViewModifier {
        let makeSource: @Sendable () -> any InspectorSource
        let external: Binding<Bool>?
        @State private var internalFlag = false

        private var presented: Binding<Bool> {
            external ?? $internalFlag
        }

        func body(content: Content) -> some View {
            content
                .background { trigger }
                .sheet(isPresented: presented) {
                    JarvisPanel(source: makeSource(), close: { presented.wrappedValue = false })
                }
        }

        @ViewBuilder private var trigger: some View {
            #if os(iOS)
                ShakeDetector { presented.wrappedValue = true }
                    .frame(width: 0, height: 0)
                    .accessibilityHidden(true)
            #elseif os(macOS)
                Button("Jarvis") { presented.wrappedValue = true }
                    .keyboardShortcut("j", modifiers: [.command, .option])
                    .opacity(0)
                    .frame(width: 0, height: 0)
                    .accessibilityHidden(true)
            #else
                EmptyView()
            #endif
        }
    }
#endif
