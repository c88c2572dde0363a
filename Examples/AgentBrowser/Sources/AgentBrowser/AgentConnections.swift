#if canImport(SwiftUI) && os(macOS)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import JarvisUI
    import SwiftUI

    /// One panel store, and so one connection, per agent in the sidebar: made the first time
    /// the agent is chosen (off the main thread), kept while it is listed, and closed when it
    /// leaves the list. Choosing an agent again reuses its connection.
    @MainActor
    final class AgentConnections: ObservableObject {
        /// What choosing an agent led to.
        enum Connection {
            case connecting
            case open(PanelStore)
            case failed(String)
        }

        @Published private(set) var connections: [AgentList.Entry.ID: Connection] = [:]

        /// The connection to `entry`, opening it if there is none yet.
        func connection(to entry: AgentList.Entry) -> Connection {
            if let known = connections[entry.id] { return known }
            return .connecting
        }

        /// Opens a connection to `entry` unless one is open or opening.
        func open(_ entry: AgentList.Entry) async {
            if case .failed = connections[entry.id] {
                // A failed attempt is tried again when the agent is chosen again.
            } else if connections[entry.id] != nil {
                return
            }
            connections[entry.id] = .connecting
            guard let endpoint = entry.record.endpoint else {
                connections[entry.id] = .failed("This agent's record names no socket.")
                return
            }
            let token = entry.record.token
            let result = await Task.detached { () -> Result<RemoteSource, JarvisError> in
                do throws(JarvisError) {
                    return .success(try RemoteSource(endpoint: endpoint, token: token, clientName: "AgentBrowser"))
                } catch {
                    return .failure(error)
                }
            }.value
            switch result {
            case .success(let source):
                guard case .connecting = connections[entry.id] else {
                    // The agent left the list while connecting.
                    source.close()
                    return
                }
                connections[entry.id] = .open(PanelStore(source: source))
            case .failure(let error):
                connections[entry.id] = .failed(error.message)
            }
        }

        /// Closes the connections of agents no longer listed.
        func keep(only entries: [AgentList.Entry]) {
            let listed = Set(entries.map(\.id))
            for (id, connection) in connections where !listed.contains(id) {
                if case .open(let store) = connection { store.close() }
                connections[id] = nil
            }
        }
    }
#endif
