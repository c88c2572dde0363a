extension JarvisHub {
    /// The item ``get(_:reveal:)`` answers for `address` (unrevealed), when its scanner holds
    /// the key in memory and knows it is current (``PreferenceScanner/readFromMemory(key:in:)``);
    /// nil whenever answering could wait on storage or another process: the key is not held,
    /// the scanner is unknown or unavailable, the name is hidden. A nil answer says nothing
    /// about the key; ask ``get(_:reveal:)`` for it, off the thread that must not wait.
    ///
    /// Apart from the scanner's memory, only its stored names are asked (names and cheap
    /// file metadata, as for every `get`).
    package func getFromMemory(_ address: PreferenceAddress) -> PreferenceItem? {
        guard let (rules, container, info, lookup) = try? resolve(address), lookup.isShown,
            let entry = rules.scanner.readFromMemory(key: lookup.key, in: lookup.container)
        else { return nil }
        return item(
            entry, scanner: rules.scanner, container: container, configuration: rules.configuration, reveal: false,
            info: info)
    }
}
