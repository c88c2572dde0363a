import Foundation
import JarvisCore
import JarvisRemote

/// What the inspector knows about one agent: its scanners, containers and items, kept up to
/// date by `changed` events, plus which rows changed recently and which secrets were revealed.
struct InspectorModel {
    /// A scanner as `scanners` describes it.
    struct Scanner: Hashable {
        var id: String
        var name: String
        var isSecret: Bool
        var isWritable: Bool
        var unavailableReason: String?
    }

    /// A container as `containers` describes it.
    struct Container: Hashable {
        var scanner: String
        var name: String
        var isWritable: Bool
        var problem: String?
    }

    private(set) var scanners: [Scanner] = []
    private(set) var containers: [Container] = []
    private(set) var items: [PreferenceAddress: PreferenceItem] = [:]
    /// When each address last changed under our eyes (for the highlight).
    private(set) var changedAt: [PreferenceAddress: ContinuousClock.Instant] = [:]
    /// Secret values the user revealed with `r`, dropped when the value changes.
    private(set) var revealed: [PreferenceAddress: PreferenceItem] = [:]

    /// How long a changed row stays highlighted.
    static let highlight: Duration = .seconds(2)

    /// Reads everything the agent shows.
    mutating func load(from client: JarvisClient) throws(JarvisError) {
        scanners = try client.scanners().map { scanner in
            Scanner(
                id: scanner.id, name: scanner.name, isSecret: scanner.secret, isWritable: scanner.writable,
                unavailableReason: scanner.available ? nil : (scanner.reason ?? "unavailable"))
        }
        containers = try client.containers().map { container in
            Container(
                scanner: container.scanner, name: container.name, isWritable: container.writable,
                problem: container.problem)
        }
        let listed = try client.list()
        var fresh: [PreferenceAddress: PreferenceItem] = [:]
        for item in listed.items { fresh[item.address] = item }
        for (address, item) in revealed where fresh[address]?.revision != item.revision {
            revealed[address] = nil
        }
        items = fresh
    }

    /// The containers of a scanner, including any that only changes told us about.
    func containers(of scanner: String) -> [Container] {
        var byName: [String: Container] = [:]
        for container in containers where container.scanner == scanner { byName[container.name] = container }
        for address in items.keys where address.scanner == scanner && byName[address.container] == nil {
            byName[address.container] = Container(
                scanner: scanner, name: address.container, isWritable: true, problem: nil)
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The items of one container, by key.
    func items(in scanner: String, _ container: String) -> [PreferenceItem] {
        items.values.filter { $0.address.scanner == scanner && $0.address.container == container }
            .sorted { $0.address.key < $1.address.key }
    }

    /// How many items a scanner or container holds.
    func count(scanner: String, container: String? = nil) -> Int {
        items.keys.filter { $0.scanner == scanner && (container == nil || $0.container == container) }.count
    }

    /// The item to show: the revealed version when there is one.
    func shown(_ address: PreferenceAddress) -> PreferenceItem? {
        revealed[address] ?? items[address]
    }

    /// Whether the row should be highlighted now.
    func isRecentlyChanged(_ address: PreferenceAddress, now: ContinuousClock.Instant) -> Bool {
        changedAt[address].map { now - $0 < Self.highlight } ?? false
    }

    /// When the next highlight ends, so the main loop can wake for it.
    func nextHighlightEnd(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        changedAt.values.map { $0 + Self.highlight }.filter { $0 > now }.min()
    }

    /// Drops highlights that have ended.
    mutating func expireHighlights(now: ContinuousClock.Instant) {
        changedAt = changedAt.filter { now - $0.value < Self.highlight }
    }

    /// Stores an item the agent returned for our own change (no highlight: the user saw it).
    mutating func store(_ item: PreferenceItem) {
        items[item.address] = item
        if revealed[item.address]?.revision != item.revision { revealed[item.address] = nil }
    }

    /// Forgets a deleted item.
    mutating func remove(_ address: PreferenceAddress) {
        items[address] = nil
        revealed[address] = nil
    }

    /// Keeps a revealed secret.
    mutating func reveal(_ item: PreferenceItem) {
        revealed[item.address] = item
    }

    /// Applies one `changed` notification; returns how many rows changed.
    @discardableResult
    mutating func apply(changed notification: ChangeNotification, now: ContinuousClock.Instant) -> Int {
        var applied = 0
        for change in notification.changes {
            let address = change.address
            if change.kind == "removed" {
                guard items[address] != nil else { continue }
                remove(address)
            } else {
                guard let item = change.item else { continue }
                // Our own edits come back as events too; they are not news.
                guard items[address]?.revision != item.revision else { continue }
                store(item)
            }
            changedAt[address] = now
            applied += 1
        }
        return applied
    }
}
