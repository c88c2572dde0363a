/// Set and delete: the only paths by which a client changes the host's storage, each one
/// write transaction (see ``write(_:_:expectedRevision:)``).
extension JarvisHub {
    /// Stores a value, creating the key if needed.
    /// - Parameter expectedRevision: when given, the write happens only if the stored value
    ///   still has this revision; otherwise `.conflict` is thrown and nothing is written.
    /// - Returns: the item as stored afterwards.
    /// - Throws: ``JarvisError``: `.readOnly` when editing is off or the item cannot be written
    ///   (placeholders included), `.conflict`, `.notFound` for a container that does not exist
    ///   and cannot be created and for hidden addresses, `.storage` when the write failed.
    @discardableResult
    public func set(
        _ address: PreferenceAddress,
        to value: PreferenceValue,
        expectedRevision: Revision? = nil
    ) throws(JarvisError) -> PreferenceItem {
        try Self.answer(write(address, .set(value), expectedRevision: expectedRevision).item, for: address)
    }

    /// Removes a stored value.
    /// - Parameter expectedRevision: when given, the delete happens only if the stored value
    ///   still has this revision; otherwise `.conflict` is thrown and nothing is removed.
    /// - Returns: the item as it was before removal.
    /// - Throws: ``JarvisError``: `.notFound` when nothing is stored, `.readOnly`, `.conflict`.
    @discardableResult
    public func delete(_ address: PreferenceAddress, expectedRevision: Revision? = nil) throws(JarvisError)
        -> PreferenceItem
    {
        try Self.answer(write(address, .delete, expectedRevision: expectedRevision).item, for: address)
    }

    /// Step 3 of the transaction: the expected revision against what is stored.
    func check(_ expected: Revision?, against current: ScannedEntry?, target: WriteTarget) throws(JarvisError) {
        guard let expected else { return }
        // Absent means nothing stored: a default showing through counts as absent.
        if expected == .absent, current == nil || current?.layer != .stored { return }
        let container = target.shownContainer
        guard let current else {
            throw JarvisError(
                .conflict,
                "'\(container.name)' has no key '\(target.address.key)' any more; it was removed since revision \(expected); list again"
            )
        }
        let actual = item(current, target: target).revision
        guard actual == expected else {
            throw JarvisError(
                .conflict,
                "'\(current.key)' in '\(container.name)' changed since revision \(expected) (now \(actual)); nothing was written; get it again and retry"
            )
        }
    }

    /// Step 6: the scanner stores the change and says what the key holds now.
    @discardableResult
    func perform(_ request: WriteRequest, on scanner: any PreferenceScanner) throws(JarvisError) -> WriteResult {
        let stored: WriteResult
        do {
            stored = try scanner.store(request)
        } catch {
            throw Self.wrap(error)
        }
        writeObservers.notify(
            WriteNotice(
                address: PreferenceAddress(scanner: scanner.id, container: request.container, key: request.key),
                step: stored.step))
        return stored
    }
}
