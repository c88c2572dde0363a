extension JarvisHub {
    /// The item ``get(_:reveal:)`` answers for `address` (unrevealed), when its scanner holds
    /// the key in memory and knows it is current (``PreferenceScanner/readFromMemory(key:in:checkpoint:)``);
    /// nil whenever answering could wait on storage or another process: the key is not held,
    /// the scanner is unknown or unavailable, the name is hidden. A nil answer says nothing
    /// about the key; ask ``get(_:reveal:)`` for it, off the thread that must not wait.
    ///
    /// Apart from the scanner's memory, only its stored names are asked (names and cheap
    /// file metadata, as for every `get`).
    ///
    /// - Parameter checkpoint: whether the change notifications the process hears were read
    ///   after the request arrived; passed to the scanner (see ``ChangeCheckpoint``).
    package func getFromMemory(_ address: PreferenceAddress, checkpoint: ChangeCheckpoint) -> PreferenceItem? {
        guard let (rules, container, info, lookup) = try? resolve(address, checkpoint: checkpoint), lookup.isShown,
            let entry = rules.scanner.readFromMemory(key: lookup.key, in: lookup.container, checkpoint: checkpoint)
        else { return nil }
        let found = item(
            entry, scanner: rules.scanner, container: container, configuration: rules.configuration, reveal: false,
            info: info)
        hear(found, at: address, stored: PreferenceAddress(scanner: address.scanner, container: lookup.container, key: lookup.key))
        return found
    }
}
