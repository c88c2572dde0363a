/// A token for what a container holds now, cheap to ask for: equal versions of one container
/// promise equal contents, and any change to the container gives it another version. A
/// file-backed scanner makes it from the file's inode, size and modification time, which it
/// reads with one `stat`.
///
/// The agent's change engine uses it to skip reading a watched container that did not change,
/// and, with a write's ``Step``, to apply the agent's own write to what it last read instead of
/// reading the whole container again (a one-key write to a 100,000-key suite then costs one key).
/// A scanner that cannot promise this answers nil, and its containers are read to find changes.
public struct ContainerVersion: Sendable, Hashable {
    /// The parts that identify the version, opaque to everyone but the scanner that made them.
    public var parts: [UInt64]

    /// A version made of the scanner's own parts (for a file: device, inode, size, time).
    public init(_ parts: [UInt64]) {
        self.parts = parts
    }

    /// What one write did to its container: the version it was made on top of and the version
    /// it left. The container at `after` holds exactly what it held at `before`, with the
    /// written key changed as the write's ``WriteResult/entry`` says.
    public struct Step: Sendable, Hashable {
        /// The version the write replaced; nil when the container did not exist.
        public var before: ContainerVersion?
        /// The version the write left.
        public var after: ContainerVersion

        /// Describes a write's step from `before` to `after`.
        public init(before: ContainerVersion?, after: ContainerVersion) {
            self.before = before
            self.after = after
        }
    }
}
