import JarvisCore

/// The plan and the outcome of importing a snapshot into an agent.
public enum SnapshotImport {
    /// What an import would do: the snapshot compared with the live values at its addresses.
    /// `diff.removed` is always empty: an import never deletes keys the snapshot lacks.
    public struct Plan: Sendable, Hashable {
        /// Live values (first side) against the snapshot (second side), placeholders left out.
        public var diff: SnapshotDiff
        /// Snapshot items that only stand in for a value (a JSON `null`, a number out of
        /// range): never written, listed in the report as skipped.
        public var placeholders: [PreferenceItem] = []
    }

    /// One address the agent refused (or failed to restore), with the agent's reason.
    public struct Failure: Sendable, Hashable {
        /// The item's address.
        public var address: PreferenceAddress
        /// What the agent said.
        public var error: JarvisError
    }

    /// What an import did.
    public struct Report: Sendable, Hashable {
        /// Keys it created.
        public var added: [PreferenceAddress] = []
        /// Keys whose value it replaced.
        public var changed: [PreferenceAddress] = []
        /// Keys that already held the snapshot's value.
        public var unchanged: [PreferenceAddress] = []
        /// Snapshot items not written because they are placeholders (see ``Plan/placeholders``).
        public var skipped: [PreferenceAddress] = []
        /// Writes the agent refused.
        public var refused: [Failure] = []
        /// Writes not tried because an earlier one was refused.
        public var notAttempted: [PreferenceAddress] = []
        /// Whether the import undid its changes after a refusal.
        public var rolledBack = false
        /// Keys put back to their value before the import.
        public var restored: [PreferenceAddress] = []
        /// Keys that could not be put back, with why.
        public var notRestored: [Failure] = []

        /// Whether every write went through.
        public var succeeded: Bool { refused.isEmpty }
    }
}
