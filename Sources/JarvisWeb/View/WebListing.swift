import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// One agent's session and tables, shared by every page open on it: 100,000 keys are loaded,
/// watched and turned into rows once, whatever the number of pages.
///
/// A table (the rows of one scope under one set of chips, in table order) is built once and
/// then patched: after a change, only the rows of the keys the model's ``InspectorRowLog``
/// names are built again, and each patch is kept so that a page can tell its browser which
/// rows changed. Thread-safe: the tables sit behind one lock, held while a table is brought
/// up to date (pages asking for the same table wait for it rather than build it again).
final class WebListing: Sendable {
    let endpoint: Endpoint
    let session: InspectorSession
    /// How many pages use it (``WebListings``).
    let users = Locked(0)
    private let tables = Locked<[Scope: Table]>([:])
    private let counts = Locked<Counts?>(nil)

    /// What a table holds: a scanner (nil: all), a container (nil: all) and chips.
    struct Scope: Hashable, Sendable {
        var scanner: String?
        var container: String?
        var chips: Set<InspectorChip>
    }

    /// A table's rows and where they stand.
    struct Rows: Sendable {
        var rows: InspectorRowChunks
        /// Grows when rows came, went or were all built again.
        var version: Int
        /// Grows with every patch of rows in place.
        var revision: Int
        /// The indices patched since the revision the caller gave (same version), nil when
        /// the caller must take every row again.
        var patched: [Int]?
    }

    private struct Table {
        var rows = InspectorRowChunks()
        var position: InspectorRowLog.Position?
        var version = 0
        var revision = 0
        /// The indices each recent revision patched (the latest ``patchMemory``)...
        var patches: [(revision: Int, index: Int)] = []
        /// ...every one of those of the revisions after this one.
        var complete = 0
        var used = ContinuousClock.now
    }

    /// Keys per scanner and per container, and the containers' sizes: counted whole when keys
    /// came or went, and otherwise changed by the keys the row log names alone (one change to
    /// a 100,000-key suite counts one key, not 100,000).
    struct Counts: Sendable {
        var position: InspectorRowLog.Position
        var perScanner: [String: Int] = [:]
        /// By `scanner NUL container`.
        var perContainer: [String: Int] = [:]
        /// The names of each scanner's containers that hold keys.
        var holding: [String: Set<String>] = [:]
        /// The agent's containers the counts were made with: another list counts again.
        var listed: [Wire.Container]
        /// What each key adds to its container's size (``ContainerSize/counted(_:)``), and
        /// each container's sum, by `scanner NUL container`.
        var itemBytes: [PreferenceAddress: Int] = [:]
        var containerBytes: [String: Int] = [:]

        /// Everything counted from the keys of `state`.
        init(_ state: InspectorState) {
            position = state.rowLog.position
            listed = state.containers
            itemBytes.reserveCapacity(state.items.count)
            for (address, item) in state.items {
                let place = address.scanner + "\u{0}" + address.container
                perScanner[address.scanner, default: 0] += 1
                perContainer[place, default: 0] += 1
                holding[address.scanner, default: []].insert(address.container)
                let bytes = ContainerSize.counted(item)
                itemBytes[address] = bytes
                containerBytes[place, default: 0] += bytes
            }
        }

        /// A key's value changed (or was hidden, revealed, masked): its size is counted again.
        mutating func recount(_ address: PreferenceAddress, _ item: PreferenceItem?) {
            let bytes = item.map(ContainerSize.counted) ?? 0
            let before = itemBytes.updateValue(bytes, forKey: address) ?? 0
            containerBytes[address.scanner + "\u{0}" + address.container, default: 0] += bytes - before
        }

        /// Each large container's warning (``ContainerSize``), by `scanner NUL container`.
        func sizeWarning(_ place: String) -> String? {
            containerBytes[place].flatMap { ContainerSize(bytes: $0).warning }
        }
    }

    static let patchMemory = 4096
    static let maxTables = 8
    /// How many characters of a value a table row previews.
    static let previewLimit = 120

    init(endpoint: Endpoint, session: InspectorSession) {
        self.endpoint = endpoint
        self.session = session
    }

    /// The rows of `scope` now, and which changed since `seen` (a version and revision the
    /// caller took before).
    func rows(_ scope: Scope, since seen: (version: Int, revision: Int)?, now: ContinuousClock.Instant) -> Rows {
        session.expireHighlights()
        let state = session.state
        return tables.withLock { tables in
            // Taken out while it changes, so a patch changes the rows in place.
            var table = tables.removeValue(forKey: scope) ?? Table()
            Self.update(&table, scope, state, now: now)
            table.used = now
            var patched: [Int]?
            if let seen, seen.version == table.version, seen.revision >= table.complete {
                patched = table.patches.filter { $0.revision > seen.revision }.map(\.index)
            }
            let answer = Rows(rows: table.rows, version: table.version, revision: table.revision, patched: patched)
            tables[scope] = table
            if tables.count > Self.maxTables, let stale = tables.min(by: { $0.value.used < $1.value.used })?.key {
                tables[stale] = nil
            }
            return answer
        }
    }

    private static func update(
        _ table: inout Table, _ scope: Scope, _ state: InspectorState, now: ContinuousClock.Instant
    ) {
        let log = state.rowLog
        defer { table.position = log.position }
        if let position = table.position, let notes = log.notes(since: position) {
            guard !notes.isEmpty else { return }
            var patched: [Int] = []
            var seen: Set<PreferenceAddress> = []
            for note in notes.reversed() where seen.insert(note.address).inserted {
                let address = note.address
                let inScope =
                    (scope.scanner == nil || address.scanner == scope.scanner)
                    && (scope.container == nil || address.container == scope.container)
                guard inScope else { continue }
                var fresh = state.row(for: address, previewLimit: previewLimit, now: now)
                if let row = fresh, !scope.chips.allSatisfy({ $0.matches(row, state.items[address], in: state) }) {
                    fresh = nil
                }
                switch (index(of: address, in: table.rows), fresh) {
                case (nil, nil): continue
                case (let at?, let row?):
                    table.rows[at] = row
                    patched.append(at)
                default:
                    // A row comes or goes: every index after it moves.
                    return rebuild(&table, scope, state, now: now)
                }
            }
            guard !patched.isEmpty else { return }
            table.revision += 1
            table.patches += patched.map { (table.revision, $0) }
            if table.patches.count > patchMemory {
                let dropped = table.patches.count - patchMemory
                table.complete = table.patches[dropped - 1].revision
                table.patches.removeFirst(dropped)
            }
            return
        }
        rebuild(&table, scope, state, now: now)
    }

    private static func rebuild(
        _ table: inout Table, _ scope: Scope, _ state: InspectorState, now: ContinuousClock.Instant
    ) {
        table.rows = InspectorRowChunks(
            state.tableRows(
                scanner: scope.scanner, container: scope.container, chips: scope.chips, previewLimit: previewLimit,
                now: now))
        table.version += 1
        table.patches = []
        table.complete = table.revision
    }

    /// Where `address`'s row is in rows kept in table order (a binary search).
    private static func index(of address: PreferenceAddress, in rows: InspectorRowChunks) -> Int? {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            guard let found = rows[middle].target.address else { return nil }
            if InspectorState.tableOrder(found, address) { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low].target.address == address ? low : nil
    }

    /// Keys per scanner and per container and the containers' sizes, counted again whole only
    /// when keys came or went or the agent's containers changed.
    func counts(_ state: InspectorState) -> Counts {
        counts.withLock { cached in
            guard var known = cached, let notes = state.rowLog.notes(since: known.position),
                !notes.contains(where: \.moved), known.listed == state.containers
            else {
                let fresh = Counts(state)
                cached = fresh
                return fresh
            }
            // Taken out while it changes, so the change is made in place, never on a copy.
            cached = nil
            var recounted: Set<PreferenceAddress> = []
            for note in notes where recounted.insert(note.address).inserted {
                known.recount(note.address, state.items[note.address])
            }
            known.position = state.rowLog.position
            cached = known
            return known
        }
    }
}
