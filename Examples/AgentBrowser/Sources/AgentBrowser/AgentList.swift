#if canImport(SwiftUI) && os(macOS)
    import Foundation
    import JarvisCore
    import JarvisRemote
    import SwiftUI

    /// The agents running for this user: local programs and apps in booted Simulators, read
    /// from their discovery files off the main thread.
    @MainActor
    final class AgentList: ObservableObject {
        /// One agent in the sidebar.
        struct Entry: Identifiable, Hashable {
            var record: AgentRecord
            var id: String { "\(record.pid)-\(record.started)" }
            /// Where it runs: the Simulator device and bundle id, or the process id.
            var detail: String {
                if let bundleID = record.bundleID { return "\(record.device ?? "Simulator") · \(bundleID)" }
                return "pid \(record.pid) · \(record.platform)"
            }
        }

        @Published private(set) var entries: [Entry] = []
        @Published private(set) var problem: String?

        func refresh() async {
            let found = await Task.detached { () -> Result<[AgentRecord], JarvisError> in
                do throws(JarvisError) {
                    return .success(try AgentDirectory.running())
                } catch {
                    return .failure(error)
                }
            }.value
            switch found {
            case .success(let records):
                entries = records.map { Entry(record: $0) }
                problem = nil
            case .failure(let error):
                entries = []
                problem = error.message
            }
        }
    }
#endif
