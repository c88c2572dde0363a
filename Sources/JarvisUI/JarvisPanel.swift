#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import SwiftUI

    /// The in-app panel: the app's stored preferences, secrets and config files in a list with
    /// per-source segments and search, a detail view with an editor that fits each type, a
    /// drill-down into nested values, add, delete, reset, reveal and a shared snapshot, kept
    /// live as values change.
    ///
    /// It draws what the platform-neutral ``InspectorSession`` decides, so it follows the
    /// agent's privacy configuration exactly as `jarvis` does: in production it shows a
    /// READ-ONLY banner and offers no edit, and secrets stay masked unless the agent allows a
    /// reveal.
    ///
    /// ```swift
    /// ContentView().jarvisPanel(agent: agent, enabled: true)   // shake (iOS) or ⌥⌘J (macOS) opens it
    /// ```
    public struct JarvisPanel: View {
        @StateObject private var store: PanelStore
        @State private var path: [PanelRoute] = []
        private let close: (() -> Void)?

        /// A panel on a store you keep (to share one session between views).
        /// - Parameter close: shown as a Done button when set.
        public init(store: @autoclosure @escaping () -> PanelStore, close: (() -> Void)? = nil) {
            _store = StateObject(wrappedValue: store())
            self.close = close
        }

        /// A panel on the agent of this app: no socket and no token involved.
        public init(agent: JarvisAgent, close: (() -> Void)? = nil) {
            self.init(store: PanelStore(source: InProcessSource(agent: agent)), close: close)
        }

        /// A panel on any source, such as a ``RemoteSource`` for an agent in another process.
        public init(source: any InspectorSource, close: (() -> Void)? = nil) {
            self.init(store: PanelStore(source: source), close: close)
        }

        /// The panel's navigation and screens.
        public var body: some View {
            NavigationStack(path: $path) {
                PanelHomeView(store: store, close: close)
                    .navigationDestination(for: PanelRoute.self) { route in
                        switch route {
                        case .container(let scanner, let name):
                            PanelListView(store: store, level: .keys(scanner: scanner, container: name))
                        case .members(let address, let pointer):
                            PanelListView(store: store, level: .value(address, pointer))
                        case .detail(let address, let pointer):
                            PanelDetailView(store: store, address: address, pointer: pointer)
                        }
                    }
            }
            .task { await store.start() }
            // A swipe down must not discard an unsaved edit (presented from UIKit, the
            // presenter asks whether to discard it).
            .interactiveDismissDisabled(store.hasUnsavedEdit)
            .overlay(alignment: .bottom) {
                if let message = store.message {
                    HStack {
                        Text(message.text)
                        // Undo after a change made here, Redo after an undo (the model's offer).
                        if let offer = message.message.offer {
                            Button(offer.label) { Task { await store.undo(redo: offer == .redo) } }
                                .buttonStyle(.borderless)
                        }
                    }
                        .font(.footnote)
                        .foregroundStyle(message.isProblem ? Color.red : Color.primary)
                        .padding(8)
                        .minimumTapTarget()
                        .background(.thinMaterial, in: Capsule())
                        .padding()
                        .onTapGesture { store.dismiss(message) }
                        .accessibilityAddTraits(.isStaticText)
                        .task(id: message) {
                            Announcer.announce(message.announcement)
                            // Messages go away by themselves after their reading time.
                            try? await Task.sleep(for: message.lifetime)
                            if !Task.isCancelled { store.dismiss(message) }
                        }
                }
            }
        }
    }
#endif
