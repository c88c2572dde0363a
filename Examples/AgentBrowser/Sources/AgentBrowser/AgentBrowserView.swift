#if canImport(SwiftUI) && os(macOS)
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import JarvisUI
    import SwiftUI

    /// The sidebar of running agents and the panel of the selected one.
    struct AgentBrowserView: View {
        @StateObject private var agents = AgentList()
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
                    AgentPanel(record: entry.record).id(entry.id)
                } else {
                    Text("Choose an agent").foregroundStyle(.secondary)
                }
            }
            .task { await agents.refresh() }
        }
    }

    /// Connects to one agent off the main thread, then shows its panel.
    struct AgentPanel: View {
        let record: AgentRecord
        @State private var source: RemoteSource?
        @State private var problem: String?

        var body: some View {
            Group {
                if let source {
                    JarvisPanel(source: source)
                } else if let problem {
                    Text(problem).foregroundStyle(.red).padding()
                } else {
                    ProgressView("Connecting to \(record.name)")
                }
            }
            .task {
                guard let endpoint = record.endpoint else {
                    problem = "This agent's record names no socket."
                    return
                }
                let token = record.token
                let result = await Task.detached { () -> Result<RemoteSource, JarvisError> in
                    do throws(JarvisError) {
                        return .success(try RemoteSource(endpoint: endpoint, token: token, clientName: "AgentBrowser"))
                    } catch {
                        return .failure(error)
                    }
                }.value
                switch result {
                case .success(let connected): source = connected
                case .failure(let error): problem = error.message
                }
            }
        }
    }
#endif
