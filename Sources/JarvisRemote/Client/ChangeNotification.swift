import Foundation
import JarvisCore

/// One `changed` notification as a client reads it: what changed in one container, in order.
public struct ChangeNotification: Sendable, Hashable {
    /// One key's change.
    public struct Change: Sendable, Hashable {
        /// `added`, `updated` or `removed`; other words may come in later protocol versions.
        public var kind: String
        /// The key that changed.
        public var address: PreferenceAddress
        /// The item now; nil when removed.
        public var item: PreferenceItem?
        /// The item before; nil when added.
        public var old: PreferenceItem?
    }

    /// The subscription it belongs to.
    public var subscription: String
    /// The agent's sequence number; pass the last one seen as `since` to resume.
    public var sequence: Int64
    /// When the agent saw the change.
    public var time: Date?
    /// The changes, in key order.
    public var changes: [Change]

    /// Decodes the params of a `changed` notification.
    /// - Throws: ``JarvisError`` `.storage` when the agent sent something malformed.
    package init(params: JSONObject) throws(JarvisError) {
        guard let subscription = params["subscription"]?.stringValue, let sequence = params["sequence"]?.int64Value
        else {
            throw JarvisError(.storage, "the agent sent a changed notification without subscription and sequence")
        }
        self.subscription = subscription
        self.sequence = sequence
        time = params["time"]?.stringValue.flatMap(DateText.parse)
        changes = []
        for raw in params["changes"]?.arrayValue ?? [] {
            guard let kind = raw["kind"]?.stringValue, let scanner = raw["scanner"]?.stringValue,
                let container = raw["container"]?.stringValue, let key = raw["key"]?.stringValue
            else {
                throw JarvisError(.storage, "the agent sent a change without kind, scanner, container and key")
            }
            changes.append(
                Change(
                    kind: kind, address: PreferenceAddress(scanner: scanner, container: container, key: key),
                    item: try raw["item"].map(WireItem.decode), old: try raw["old"].map(WireItem.decode)))
        }
    }
}
