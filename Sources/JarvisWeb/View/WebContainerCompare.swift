import JarvisCore
import JarvisInspector
import JarvisRemote

/// A container of the agent in view compared with another agent's or a snapshot file's, as
/// the page holds it: the other side, and the differences read last.
struct WebContainerCompare: Sendable {
    /// The side compared with.
    enum Other: Sendable {
        case agent(AgentRecord, label: String)
        case file(name: String, items: [PreferenceItem], leftOut: [PreferenceAddress])
    }

    var scanner: String
    var container: String
    var other: Other
    var result: InspectorContainerComparison
    /// What applying the last difference did.
    var applied: InspectorMessage?

    var otherLabel: String {
        switch other {
        case .agent(_, let label): "agent \(label)"
        case .file(let name, _, _): "snapshot \(name)"
        }
    }
}
