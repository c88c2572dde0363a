import JarvisCore
import JarvisRemote

/// Everything an inspector knows about one agent, as a value: scanners, containers and items,
/// what changed a moment ago, which secrets the user revealed, and what went wrong.
///
/// Pure: ``InspectorSession`` fills it from a source; the faces read rows from it. Each
/// decision (what a row shows, whether an edit may be offered, what changed) is made here and
/// tested on Linux.
public struct InspectorState: Sendable {
    /// What the agent said in `hello`.
    public var hello: Wire.HelloResult
    /// The agent's scanners, in its order.
    public private(set) var scanners: [Wire.Scanner] = [] {
        didSet {
            generation &+= 1
            rowLog.restart()
        }
    }
    /// The agent's containers, with problems it reported.
    public private(set) var containers: [Wire.Container] = [] {
        didSet {
            generation &+= 1
            rowLog.restart()
        }
    }
    /// Every visible item, by address (masked secrets masked).
    public private(set) var items: [PreferenceAddress: PreferenceItem] = [:] {
        didSet { generation &+= 1 }
    }
    /// Every address of ``items`` in table order (``tableOrder(_:_:)``), kept in step by the
    /// few writers of `items`: a change to one key moves one entry, so no table ever sorts
    /// all keys again (with 100,000 keys a sort took most of a second).
    public internal(set) var orderedAddresses: [PreferenceAddress] = []
    /// Secrets the user revealed, dropped when their value changes.
    public private(set) var revealed: [PreferenceAddress: PreferenceItem] = [:] {
        didSet { generation &+= 1 }
    }
    /// When each key last changed under the user's eyes.
    public private(set) var changedAt: [PreferenceAddress: ContinuousClock.Instant] = [:] {
        didSet { generation &+= 1 }
    }
    /// What each marked key held before its change (nil: it did not exist), for "old → new".
    /// The first value of a burst is kept until the mark ends.
    private var changedFrom: [PreferenceAddress: Earlier] = [:]
    /// Why there are no live updates; nil while they run (or before they start).
    public var liveProblem: String?
    /// Whether live updates run.
    public var isLive = false
    /// Whether the agent went away: its live updates ran and their connection ended. No row
    /// offers an edit and ``canEdit`` is false until a face opens a new session when the agent
    /// is back (``InspectorReconnection``).
    public internal(set) var isGone = false {
        didSet {
            generation &+= 1
            rowLog.restart()
        }
    }
    /// Containers the agent hid as system domains (a count, so the UI can say so).
    public private(set) var hiddenSystemContainers = 0

    /// What the last change from elsewhere did, for a status line (`theme: light → dark`),
    /// named even when the key is filtered out of view; nil before any.
    public private(set) var lastChange: InspectorMessage?
    /// How many changes from elsewhere have arrived: a face compares it to know news came.
    public private(set) var changeCount = 0
    /// The number of the latest key change marked (one per key per change, from 1): a face
    /// keeps it to show the keys changed since (``InspectorChip/changedSince(_:)``).
    public private(set) var changeSerial = 0
    /// The ``changeSerial`` of each key's latest marked change.
    private var changedSerial: [PreferenceAddress: Int] = [:]

    /// Grows whenever what rows are built from changes (items, reveals, change marks,
    /// scanners, containers): a face caches rows and builds them again only when it moved.
    public private(set) var generation = 0

    /// Which keys' rows may have changed, for a face that patches the rows it built.
    public private(set) var rowLog = InspectorRowLog()

    /// How long a changed row stays marked.
    public static let highlight: Duration = .seconds(2)
    /// The most characters of a value a detail shows, in every face; larger values are cut
    /// with a line saying so.
    public static let detailLimit = 256 * 1024

    /// An empty state for an agent.
    public init(hello: Wire.HelloResult) { self.hello = hello }

    // MARK: - Capabilities

    /// Whether the agent accepts edits at all. False in production: no face offers an edit.
    /// Also false while the agent is gone (``isGone``).
    public var canEdit: Bool { hello.capabilities.editing && !hello.capabilities.production && !isGone }
    /// Whether the agent reveals secrets on request.
    public var canReveal: Bool { hello.capabilities.reveal }
    /// Whether the agent runs the production preset.
    public var isProduction: Bool { hello.capabilities.production }
    /// The banner a face shows above everything, or nil: `READ-ONLY (production)`, `READ-ONLY`.
    public var banner: String? {
        if isProduction { return "READ-ONLY (production)" }
        if !hello.capabilities.editing { return "READ-ONLY" }
        return nil
    }

    // MARK: - Loading and changes

    /// Replaces everything with what the agent listed; revealed values survive when unchanged.
    public mutating func replace(
        scanners: [Wire.Scanner], containers: [Wire.Container], items fresh: [PreferenceItem],
        problems: [Wire.Container] = [], hiddenSystemContainers: Int = 0
    ) {
        self.scanners = scanners
        var byName: [String: Wire.Container] = [:]
        for container in containers + problems { byName[container.scanner + "\u{0}" + container.name] = container }
        self.containers = byName.values.sorted { ($0.scanner, $0.name) < ($1.scanner, $1.name) }
        var table: [PreferenceAddress: PreferenceItem] = [:]
        table.reserveCapacity(fresh.count)
        for item in fresh { table[item.address] = item }
        revealed = revealed.filter { table[$0.key]?.revision == $0.value.revision }
        // The same addresses (each is listed once) keep their order; otherwise sort once.
        if orderedAddresses.count != table.count || !orderedAddresses.allSatisfy({ table[$0] != nil }) {
            orderedAddresses = table.keys.sorted(by: Self.tableOrder)
        }
        items = table
        self.hiddenSystemContainers = hiddenSystemContainers
        rowLog.restart()
    }

    /// Stores an item the agent returned for the user's own action: not news, so a mark the
    /// change's own notification set (when it arrived before the answer) is cleared.
    public mutating func store(_ item: PreferenceItem) {
        keep(item)
        changedAt[item.address] = nil
    }

    private mutating func keep(_ item: PreferenceItem) {
        guard item.pointer == nil else { return }
        let isNew = items[item.address] == nil
        if isNew { insertOrdered(item.address) }
        rowLog.note(item.address, moved: isNew)
        items[item.address] = item
        if revealed[item.address]?.revision != item.revision { revealed[item.address] = nil }
    }

    /// Takes a key's removal: a catalogued key stays, unset, with its default (as `ls` shows
    /// it); any other key is forgotten.
    public mutating func removeStored(_ address: PreferenceAddress) {
        guard let old = items[address] else { return }
        guard let unset = Self.unset(old) else { return remove(address) }
        rowLog.note(address)
        items[address] = unset
        revealed[address] = nil
    }

    /// The unset item a catalogued key becomes when what was stored goes; nil for a key the
    /// catalog does not declare.
    static func unset(_ item: PreferenceItem) -> PreferenceItem? {
        guard var note = item.catalog else { return nil }
        note.isUnset = true
        if item.isMasked {
            note.defaultValue = nil
            note.allowedValues = nil
        }
        var unset = PreferenceItem(
            address: item.address, type: item.type, value: nil, revision: .absent, isWritable: item.isWritable)
        unset.catalog = note
        return unset
    }

    /// Forgets a key.
    public mutating func remove(_ address: PreferenceAddress) {
        if items[address] != nil {
            removeOrdered(address)
            rowLog.note(address, moved: true)
        }
        items[address] = nil
        revealed[address] = nil
        changedAt[address] = nil
    }

    /// Keeps a secret the user revealed.
    public mutating func reveal(_ item: PreferenceItem) {
        guard item.pointer == nil, !item.isMasked else { return }
        rowLog.note(item.address)
        revealed[item.address] = item
    }

    /// Applies one `changed` notification; returns how many keys it changed. The user's own
    /// edits come back as events too and are not marked. A container that became unreadable
    /// shows its problem at once (its keys stay, as the agent kept them); one readable again,
    /// or whose keys changed, shows none.
    /// - Parameter marking: whether changed keys are marked for ``highlight`` (false when a
    ///   load replays what arrived while it read).
    @discardableResult
    public mutating func apply(_ notification: ChangeNotification, now: ContinuousClock.Instant, marking: Bool = true)
        -> Int
    {
        if let container = notification.container {
            if mark(container), marking, let problem = container.problem, container.kind == .unreadable {
                changeCount += 1
                lastChange = InspectorMessage("\(container.name) cannot be read: \(problem)", .error)
            }
        } else if let address = notification.changes.first?.address {
            // Keys are reported only from a good read (or when the container went): any
            // problem it had is over.
            mark(ChangeNotification.ContainerChange(kind: .readable, scanner: address.scanner, name: address.container))
        }
        var applied = 0
        var described: [String] = []
        for change in notification.changes {
            let address = change.address
            let before = items[address]
            if let item = change.item {
                guard items[address]?.revision != item.revision || items[address]?.layer != item.layer else { continue }
                keep(item)
            } else {
                guard let old = items[address], !Self.isUnset(old) else { continue }
                removeStored(address)
            }
            if marking { mark(address, before: before, now: now) }
            applied += 1
            if described.count < 1 { described.append(Self.describe(change, now: items[address])) }
        }
        if marking, applied > 0 {
            changeCount += applied
            lastChange = InspectorMessage(
                described.joined() + (applied > 1 ? " (and \(applied - 1) more)" : ""), .warning)
        }
        return applied
    }

    /// Sets or clears a container's problem as a notification reports it; returns whether it
    /// changed. Kinds this version does not know change nothing.
    @discardableResult
    private mutating func mark(_ change: ChangeNotification.ContainerChange) -> Bool {
        let problem: String?
        switch change.kind {
        case .unreadable: problem = change.problem ?? "cannot be read"
        case .readable: problem = nil
        default: return false
        }
        if let index = containers.firstIndex(where: { $0.scanner == change.scanner && $0.name == change.name }) {
            guard containers[index].problem != problem else { return false }
            containers[index].problem = problem
            return true
        }
        guard let problem else { return false }
        // A container the listing did not have yet, as `list` would show it.
        var all = containers
        all.append(Wire.Container(scanner: change.scanner, name: change.name, writable: false, problem: problem))
        containers = all.sorted { ($0.scanner, $0.name) < ($1.scanner, $1.name) }
        return true
    }

    /// `theme: light → dark`, `theme: removed (unset, default: system)`, `new_key: added = 1`.
    static func describe(_ change: ChangeNotification.Change, now: PreferenceItem?) -> String {
        let name = change.address.key
        let after = now.map { preview($0, limit: 30) } ?? "removed"
        guard let old = change.old else { return "\(name): added = \(after)" }
        if change.item == nil { return "\(name): removed" + (now == nil ? "" : " (now \(after))") }
        return "\(name): \(preview(old, limit: 30)) → \(after)"
    }

    /// Whether a key changed within ``highlight`` of `now`.
    public func isRecentlyChanged(_ address: PreferenceAddress, now: ContinuousClock.Instant) -> Bool {
        changedAt[address].map { now - $0 < Self.highlight } ?? false
    }

    /// When the next mark ends, so a face can redraw then.
    public func nextHighlightEnd(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        changedAt.values.map { $0 + Self.highlight }.filter { $0 > now }.min()
    }

    /// Drops marks that have ended.
    public mutating func expireHighlights(now: ContinuousClock.Instant) {
        guard changedAt.values.contains(where: { now - $0 >= Self.highlight }) else { return }
        for (address, at) in changedAt where now - at >= Self.highlight { rowLog.note(address) }
        changedAt = changedAt.filter { now - $0.value < Self.highlight }
        changedFrom = changedFrom.filter { changedAt[$0.key] != nil }
    }

    /// Marks a key changed from `before` (what it held, nil when it did not exist): the start
    /// of a burst is what "old → new" shows until the mark ends.
    mutating func mark(_ address: PreferenceAddress, before: PreferenceItem?, now: ContinuousClock.Instant) {
        if !isRecentlyChanged(address, now: now) || changedFrom[address] == nil {
            changedFrom[address] = Earlier(item: before)
        }
        changedAt[address] = now
        changeSerial += 1
        changedSerial[address] = changeSerial
        rowLog.note(address)
    }

    /// Whether a key changed (from elsewhere, as marked) after change number `serial`
    /// (``changeSerial`` as a face read it).
    public func changed(_ address: PreferenceAddress, since serial: Int) -> Bool {
        (changedSerial[address] ?? 0) > serial
    }

    /// What a key marked changed showed before, as a row previews it (`unset (default: 3)`,
    /// `(new)` for a key that did not exist); nil when it is not marked.
    public func previousPreview(
        of address: PreferenceAddress, limit: Int = 80, now: ContinuousClock.Instant = .now
    ) -> String? {
        guard isRecentlyChanged(address, now: now), let earlier = changedFrom[address] else { return nil }
        return earlier.item.map { Self.preview($0, limit: limit) } ?? "(new)"
    }

    /// A key as it was before a change.
    struct Earlier: Sendable {
        var item: PreferenceItem?
    }

    // MARK: - Reading

    /// The item to show for a key: the revealed one when there is one.
    public func shown(_ address: PreferenceAddress) -> PreferenceItem? {
        revealed[address] ?? items[address]
    }

    /// The value at `pointer` inside a key's shown value; nil when masked, unset or gone.
    public func value(at address: PreferenceAddress, _ pointer: JSONPointer) -> PreferenceValue? {
        guard let item = shown(address), !Self.isUnset(item), let value = item.value else { return nil }
        return try? pointer.value(in: value)
    }

    /// The containers of a scanner, including any that only changes told us about.
    public func containers(of scanner: String) -> [Wire.Container] {
        containers(of: scanner, holding: Set(items.keys.lazy.filter { $0.scanner == scanner }.map(\.container)))
    }

    /// ``containers(of:)`` for a face that knows which containers hold keys (`holding`, names
    /// of the scanner's containers), so the keys are not gone through again.
    public func containers(of scanner: String, holding names: Set<String>) -> [Wire.Container] {
        var byName: [String: Wire.Container] = [:]
        for container in containers where container.scanner == scanner { byName[container.name] = container }
        for name in names where byName[name] == nil {
            byName[name] = Wire.Container(scanner: scanner, name: name, writable: true)
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// How many keys a scanner, or one of its containers, holds.
    public func count(scanner: String?, container: String? = nil) -> Int {
        guard let scanner else { return items.count }
        return items.keys.reduce(0) { total, address in
            total + (address.scanner == scanner && (container == nil || address.container == container) ? 1 : 0)
        }
    }

    /// The per-scanner segments, All first.
    public func segments() -> [InspectorSegment] {
        var counts: [String: Int] = [:]
        for address in items.keys { counts[address.scanner, default: 0] += 1 }
        return [InspectorSegment(scanner: nil, title: "All", count: items.count)]
            + scanners.map { InspectorSegment(scanner: $0.id, title: $0.name, count: counts[$0.id] ?? 0) }
    }

    /// Whether an item is a catalogued key with nothing stored.
    public static func isUnset(_ item: PreferenceItem) -> Bool { item.catalog?.isUnset == true }
}
