import JarvisCore

/// The typed agent methods, async: each runs its ``JarvisClient`` counterpart off the
/// cooperative pool (see ``AsyncJarvisClient``).
extension AsyncJarvisClient {
    /// Asks the agent whether it is there.
    public func ping() async throws(JarvisError) {
        try await run { client throws(JarvisError) in try client.ping() }
    }

    /// The agent's scanners, in its order.
    public func scanners() async throws(JarvisError) -> [Wire.Scanner] {
        try await run { client throws(JarvisError) in try client.scanners() }
    }

    /// The visible containers, of one scanner or all.
    public func containers(scanner: String? = nil) async throws(JarvisError) -> [Wire.Container] {
        try await run { client throws(JarvisError) in try client.containers(scanner: scanner) }
    }

    /// Every item matching `params`' filters, fetched page by page.
    public func listing(_ params: Wire.ListParams = Wire.ListParams(), pageSize: Int = Wire.maxPageSize)
        async throws(JarvisError) -> Wire.ListPage
    {
        try await run { client throws(JarvisError) in try client.listing(params, pageSize: pageSize) }
    }

    /// One item, or one place inside its value.
    public func get(_ place: Wire.Place, reveal: Bool = false) async throws(JarvisError) -> PreferenceItem {
        try await run { client throws(JarvisError) in try client.get(place, reveal: reveal) }
    }

    /// Stores a value; with `expectedRevision`, only if nobody changed it since.
    @discardableResult
    public func set(_ place: Wire.Place, to value: PreferenceValue, expectedRevision: Revision? = nil)
        async throws(JarvisError) -> PreferenceItem
    {
        try await run { client throws(JarvisError) in
            try client.set(place, to: value, expectedRevision: expectedRevision)
        }
    }

    /// Removes a stored value, or one place inside it; returns it as it was.
    @discardableResult
    public func delete(_ place: Wire.Place, expectedRevision: Revision? = nil) async throws(JarvisError)
        -> PreferenceItem
    {
        try await run { client throws(JarvisError) in try client.delete(place, expectedRevision: expectedRevision) }
    }

    /// Removes every stored key of `container` matching the glob `match`.
    @discardableResult
    public func delete(matching match: String, in container: String, scanner: String? = nil, dryRun: Bool = false)
        async throws(JarvisError) -> Wire.BulkDeleteResult
    {
        try await run { client throws(JarvisError) in
            try client.delete(matching: match, in: container, scanner: scanner, dryRun: dryRun)
        }
    }

    /// Removes what is stored for a key so its default applies again.
    @discardableResult
    public func reset(_ place: Wire.Place, expectedRevision: Revision? = nil) async throws(JarvisError)
        -> Wire.ResetResult
    {
        try await run { client throws(JarvisError) in try client.reset(place, expectedRevision: expectedRevision) }
    }

    /// The newest audit records matching `params`, oldest first.
    public func history(_ params: Wire.HistoryParams = Wire.HistoryParams()) async throws(JarvisError)
        -> Wire.HistoryPage
    {
        try await run { client throws(JarvisError) in try client.history(params) }
    }

    /// What the host's key catalog does not expect in the containers `container` matches
    /// (every container when nil); empty when all is as it says.
    public func check(container: String? = nil) async throws(JarvisError) -> Wire.CheckResult {
        try await run { client throws(JarvisError) in try client.check(container: container) }
    }
}
