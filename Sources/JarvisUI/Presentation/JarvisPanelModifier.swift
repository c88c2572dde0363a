#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import SwiftUI

    extension View {
        /// Presents the Jarvis panel over this view: on iOS when the device is shaken, on macOS
        /// with ⌥⌘J — only when `enabled` is true — and whenever `isPresented` becomes true.
        ///
        /// Turn it on in builds for yourself and testers only; an App Store build should not
        /// start the agent at all (see `docs/IOS.md`):
        /// ```swift
        /// #if DEBUG
        /// ContentView().jarvisPanel(agent: agent, enabled: true)
        /// #endif
        /// ```
        /// The panel makes its source once per showing, off the main thread, and closes its
        /// session (its live feed) when it is dismissed.
        /// - Parameters:
        ///   - agent: the agent this app started (`JarvisAgent.start`).
        ///   - enabled: whether the shake and the shortcut open it; false makes them do nothing.
        ///   - isPresented: a binding that also opens and closes it; nil uses the gestures only.
        public func jarvisPanel(agent: JarvisAgent, enabled: Bool, isPresented: Binding<Bool>? = nil) -> some View {
            modifier(
                JarvisPanelModifier(
                    makeSource: { InProcessSource(agent: agent) }, gestures: enabled, external: isPresented))
        }

        /// Presents the Jarvis panel on any source (for example a ``RemoteSource``); `source` is
        /// called once per showing, off the main thread.
        /// - Parameters:
        ///   - source: makes the source the panel reads; the panel closes it when dismissed.
        ///   - enabled: whether the shake and the shortcut open it.
        ///   - isPresented: a binding that also opens and closes it.
        public func jarvisPanel(
            source: @escaping @Sendable () throws -> any InspectorSource, enabled: Bool,
            isPresented: Binding<Bool>? = nil
        ) -> some View {
            modifier(JarvisPanelModifier(makeSource: source, gestures: enabled, external: isPresented))
        }
    }

    /// Opens the panel on a shake, a shortcut or a binding; one store per showing, closed when
    /// the sheet goes away.
    struct JarvisPanelModifier: ViewModifier {
        let makeSource: @Sendable () throws -> any InspectorSource
        let gestures: Bool
        let external: Binding<Bool>?
        @State private var internalFlag = false
        @State private var shown: Shown?
        @State private var opening = false
        @State private var current: PanelStore?

        /// One showing of the panel.
        struct Shown: Identifiable {
            let id = UUID()
            let store: PanelStore?
            let problem: String?
        }

        private var wanted: Binding<Bool> {
            external ?? $internalFlag
        }

        func body(content: Content) -> some View {
            content
                .background { trigger }
                .sheet(item: $shown, onDismiss: dismissed) { shown in
                    Group {
                        if let store = shown.store {
                            JarvisPanel(store: store, close: { wanted.wrappedValue = false })
                        } else {
                            VStack {
                                PanelEmptyView(
                                    title: "Cannot open Jarvis", message: shown.problem ?? "",
                                    systemImage: "exclamationmark.triangle",
                                    retry: nil)
                                // A Mac sheet has no swipe: this is its way out (Escape too).
                                Button("Close") { wanted.wrappedValue = false }
                                    .keyboardShortcut(.cancelAction)
                                    .minimumTapTarget()
                            }
                        }
                    }
                    .panelSheetSize()
                }
                .onChange(of: wanted.wrappedValue) { open in
                    if open { self.open() } else { shown = nil }
                }
                .onAppear { if wanted.wrappedValue { open() } }
        }

        /// Makes the source off the main thread (a remote one opens a socket), once.
        private func open() {
            guard shown == nil, !opening else { return }
            opening = true
            let make = makeSource
            Task { @MainActor in
                let made = await Task.detached { () -> Result<any InspectorSource, any Error> in
                    Result { try make() }
                }.value
                opening = false
                guard wanted.wrappedValue else {
                    if case .success(let source) = made { source.close() }
                    return
                }
                switch made {
                case .success(let source):
                    let store = PanelStore(source: source)
                    current = store
                    shown = Shown(store: store, problem: nil)
                case .failure(let error):
                    shown = Shown(store: nil, problem: (error as? JarvisError)?.message ?? error.localizedDescription)
                }
            }
        }

        /// The sheet went away (swiped down, Done, Escape, or the binding): close its session.
        private func dismissed() {
            current?.close()
            current = nil
            wanted.wrappedValue = false
        }

        @ViewBuilder private var trigger: some View {
            if gestures {
                #if os(iOS)
                    // The shaken window's top-most controller presents (over the app's own
                    // sheets, alerts and covers); the binding's sheet hangs off this view.
                    ShakeDetector { window in
                        guard shown == nil, !opening else { return }
                        PanelPresenter.present(makeSource: makeSource, in: window)
                    }
                    .frame(width: 0, height: 0)
                    .accessibilityHidden(true)
                    // `os(iOS)` is true in a Mac Catalyst app too: it has no shake, so ⌥⌘J.
                    #if targetEnvironment(macCatalyst)
                        shortcut
                    #endif
                #elseif os(macOS)
                    shortcut
                #endif
            }
        }

        /// ⌥⌘J, on a button no one sees.
        private var shortcut: some View {
            Button("Jarvis") { wanted.wrappedValue = true }
                .keyboardShortcut("j", modifiers: [.command, .option])
                .opacity(0)
                .frame(width: 0, height: 0)
                .accessibilityHidden(true)
        }
    }

    extension View {
        /// On macOS a sheet is as small as its content unless sized: give the panel room.
        @ViewBuilder func panelSheetSize() -> some View {
            #if os(macOS)
                self.frame(minWidth: 640, idealWidth: 760, minHeight: 480, idealHeight: 620)
            #else
                self
            #endif
        }
    }
#endif
