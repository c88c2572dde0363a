import JarvisCore

/// One typed method per agent method, built on the wire schema (``Wire``): what the CLI, the
/// inspector and a host's tests call instead of building params by hand.
extension JarvisClient {
    /// Asks the agent whether it is there.
    public func ping() throws(JarvisError) {
        _ = try Wire.PingResult(json: try call("ping"))
    }

    /// The agent's scanners, in its order.
    public func scanners() throws(JarvisError) -> [Wire.Scanner] {
        try Wire.ScannersResult(json: try call("scanners")).scanners
    }

    /// The visible containers, of one scanner or all.
    public func containers(scanner: String? = nil) throws(JarvisError) -> [Wire.Container] {
        try call(Wire.ContainersParams(scanner: scanner), expecting: Wire.ContainersResult.self).containers
    }

    /// One page of `list`, as the agent sent it.
    public func listPage(_ params: Wire.ListParams) throws(JarvisError) -> Wire.ListPage {
        try call(params)
    }

    /// Every item matching `params`' filters, fetched page by page (its `limit` and `cursor`
    /// are replaced), as one page holding every item and the problems.
    public func listing(_ params: Wire.ListParams = Wire.ListParams(), pageSize: Int = Wire.maxPageSize)
        throws(JarvisError) -> Wire.ListPage
    {
        var request = params
        request.limit = max(1, min(pageSize, Wire.maxPageSize))
        request.cursor = nil
        var whole = Wire.ListPage(items: [], problems: [])
        repeat {
            let page = try listPage(request)
            whole.items += page.items
            whole.problems += page.problems
            whole.hiddenSystemContainers = max(whole.hiddenSystemContainers, page.hiddenSystemContainers)
            request.cursor = page.nextCursor
        } while request.cursor != nil
        return whole
    }

    /// Every visible item matching the filters (patterns are globs), fetched page by page.
    public func list(scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false)
        throws(JarvisError) -> (items: [PreferenceItem], problems: [JSONValue])
    {
        let whole = try listing(Wire.ListParams(scanner: scanner, container: container, key: key, reveal: reveal))
        return (whole.items, whole.problems.map(\.json))
    }

    /// Calls `list` with `params` page by page and returns one result holding every page's
    /// items and problems, as an unpaged `list` would.
    @available(
        *, deprecated,
        message: "use listing(_:pageSize:), which takes typed Wire.ListParams and returns a Wire.ListPage"
    )
    public func listAll(_ params: JSONObject, pageSize: Int = Wire.maxPageSize) throws(JarvisError) -> JSONValue {
        var items: [JSONValue] = []
        var problems: [JSONValue] = []
        var hiddenSystem: JSONValue?
        var cursor: String?
        var request = params
        request["limit"] = .integer(pageSize)
        repeat {
            if let cursor { request["cursor"] = .string(cursor) }
            let page = try call("list", request)
            items += page["items"]?.arrayValue ?? []
            problems += page["problems"]?.arrayValue ?? []
            hiddenSystem = hiddenSystem ?? page["hiddenSystemContainers"]
            cursor = page["nextCursor"]?.stringValue
        } while cursor != nil
        var all: JSONObject = ["items": .array(items), "problems": .array(problems)]
        all.setIfPresent("hiddenSystemContainers", hiddenSystem)
        return .object(all)
    }

    /// One item, or one place inside its value; without a scanner the agent finds it.
    public func get(_ place: Wire.Place, reveal: Bool = false) throws(JarvisError) -> PreferenceItem {
        try call(Wire.GetParams(place, reveal: reveal), expecting: Wire.ItemResult.self).item
    }

    /// One item.
    public func get(_ address: PreferenceAddress, reveal: Bool = false) throws(JarvisError) -> PreferenceItem {
        try get(Wire.Place(address), reveal: reveal)
    }

    /// Stores a value at a key or at a place inside one; with `expectedRevision`, only if
    /// nobody changed it since. Returns the item (or place) as stored.
    /// - Parameter change: the name of the change this write is one of (a fan-out's id), which
    ///   the agent records in its journal entry; sent only to an agent that takes it
    ///   (``Wire/Capabilities/changes``).
    @discardableResult
    public func set(
        _ place: Wire.Place, to value: PreferenceValue, expectedRevision: Revision? = nil, change: String? = nil
    ) throws(JarvisError) -> PreferenceItem {
        var params = Wire.SetParams(place, value: value, expectedRevision: expectedRevision)
        params.change = Wire.ChangeParams(change: sendable(change))
        return try call(params, expecting: Wire.ItemResult.self).item
    }

    /// `change` where the agent takes it, else nil.
    func sendable(_ change: String?) -> String? {
        helloResult.capabilities.changes ? change : nil
    }

    /// Stores a value; with `expectedRevision`, only if nobody changed it since.
    @discardableResult
    public func set(_ address: PreferenceAddress, to value: PreferenceValue, expectedRevision: Revision? = nil)
        throws(JarvisError) -> PreferenceItem
    {
        try set(Wire.Place(address), to: value, expectedRevision: expectedRevision)
    }

    /// Removes a stored value, or one place inside it; returns it as it was.
    /// - Parameter change: as for ``set(_:to:expectedRevision:change:)``.
    @discardableResult
    public func delete(_ place: Wire.Place, expectedRevision: Revision? = nil, change: String? = nil)
        throws(JarvisError) -> PreferenceItem
    {
        var params = Wire.DeleteParams(place, expectedRevision: expectedRevision)
        params.change = Wire.ChangeParams(change: sendable(change))
        return try call(params, expecting: Wire.ItemResult.self).item
    }

    /// Removes a stored value; returns it as it was.
    @discardableResult
    public func delete(_ address: PreferenceAddress, expectedRevision: Revision? = nil) throws(JarvisError)
        -> PreferenceItem
    {
        try delete(Wire.Place(address), expectedRevision: expectedRevision)
    }

    /// Removes every stored key of `container` matching the glob `match` (`dryRun`: only
    /// lists them).
    @discardableResult
    public func delete(matching match: String, in container: String, scanner: String? = nil, dryRun: Bool = false)
        throws(JarvisError) -> Wire.BulkDeleteResult
    {
        try deleteKeys(Wire.BulkDeleteParams(scanner: scanner, container: container, match: match, dryRun: dryRun))
    }

    /// Removes the stored keys `params` selects: those matching a glob, or those the host's
    /// key catalog does not declare (`dryRun`: only lists them).
    @discardableResult
    public func deleteKeys(_ params: Wire.BulkDeleteParams) throws(JarvisError) -> Wire.BulkDeleteResult {
        try call(params)
    }

    /// Removes what is stored for a key so its default applies again.
    @discardableResult
    public func reset(_ place: Wire.Place, expectedRevision: Revision? = nil) throws(JarvisError) -> Wire.ResetResult {
        try call(Wire.ResetParams(place, expectedRevision: expectedRevision))
    }

    /// The newest audit records matching `params`, oldest first.
    public func history(_ params: Wire.HistoryParams = Wire.HistoryParams()) throws(JarvisError) -> Wire.HistoryPage {
        try call(params)
    }

    /// What the host's key catalog does not expect in the containers `container` matches
    /// (every container when nil); empty when all is as it says.
    public func check(container: String? = nil) throws(JarvisError) -> Wire.CheckResult {
        try call(Wire.CheckParams(container: container))
    }
}
