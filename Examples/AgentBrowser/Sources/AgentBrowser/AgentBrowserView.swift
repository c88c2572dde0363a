#if canImport(SwiftUI) && os(macOS)
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import JarvisUI
    import SwiftUI

    /// The sidebar of running agents and the panel of the selected one.
    struct AgentBrowserView: View {
        @StateObject private var agents = AgentList()
        @StateObject private var connections = AgentConnections()
        @State private var selection: AgentList.Entry.ID?

        var body: some View {
            NavigationSplitView {
                List(agents.entries, selection: $selection) { entry in
                    VStack(alignment: .leading, spacing: 2) {
                        Text(entry.record.name).font(.headline)
                        Text(entry.detail).font(.caption).foregroundStyle(.secondary)
                    }
                    .tag(entry.id)
                    .accessibilityElement(children: .combine)
                }
                .overlay {
                    if agents.entries.isEmpty {
                        Text(agents.problem ?? "No agent is running. Start an app that embeds Jarvis, or `jarvis-agent --demo`.")
                            .font(.callout).foregroundStyle(.secondary).multilineTextAlignment(.center).padding()
                    }
                }
                .toolbar {
                    Button { Task { await agents.refresh() } } label: { Label("Refresh", systemImage: "arrow.clockwise") }
                }
                .navigationTitle("Agents")
            } detail: {
                if let entry = agents.entries.first(where: { $0.id == selection }) {
                    AgentPanel(entry: entry, connections: connections).id(entry.id)
                } else {
                    Text("Choose an agent").foregroundStyle(.secondary)
                }
            }
            .task { await agents.refresh() }
            .onChange(of: agents.entries) { entries in connections.keep(only: entries) }
        }
    }

    /// The panel of one agent, on the connection ``AgentConnections`` keeps for it.
    struct AgentPanel: View {
        let entry: AgentList.Entry
        @ObservedObject var connections: AgentConnections

        var body: some View {
            Group {
                switch connections.connection(to: entry) {
                case .open(let store):
                    JarvisPanel(store: store)
                case .failed(let problem):
                    Text(problem).foregroundStyle(.red).padding()
                case .connecting:
                    ProgressView("Connecting to \(entry.record.name)")
                }
            }
            .task(id: entry.id) { await connections.open(entry) }
        }
    }
#endif
