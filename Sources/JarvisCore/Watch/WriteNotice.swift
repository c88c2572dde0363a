/// What the hub tells its write observers (the change engine) for each key a scanner stored:
/// where, and the container's version step when the scanner knows it, so a watcher can apply
/// the write to what it last read instead of reading the whole container again.
package struct WriteNotice: Sendable, Hashable {
    /// The key written.
    package var address: PreferenceAddress
    /// The container's version before and after (``WriteResult/step``); nil when unknown.
    package var step: ContainerVersion.Step?

    package init(address: PreferenceAddress, step: ContainerVersion.Step?) {
        self.address = address
        self.step = step
    }
}
