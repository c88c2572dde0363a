import JarvisCore
import JarvisRemote

extension InspectorState {
    /// The rows of a level, narrowed by `filter`.
    /// - Parameters:
    ///   - previewLimit: the longest preview in characters (rows never hold more).
    ///   - now: the moment that decides which rows are marked as changed.
    public func rows(
        _ level: InspectorLevel, filter: InspectorFilter = InspectorFilter(), previewLimit: Int = 80,
        now: ContinuousClock.Instant = .now
    ) -> [InspectorRow] {
        let all: [InspectorRow]
        switch level {
        case .scanners:
            all = scanners.map(scannerRow)
        case .containers(let scanner):
            let sizes = containerSizes()
            all = containers(of: scanner).map { containerRow($0, size: sizes[Self.place($0)]) }
        case .keys(let scanner, let container):
            // The table order is natural by key first: one container's keys come out in order.
            all = orderedAddresses.compactMap { address in
                guard address.scanner == scanner, address.container == container, let item = items[address] else {
                    return nil
                }
                return keyRow(item, previewLimit: previewLimit, now: now)
            }
        case .value(let address, let pointer):
            all = memberRows(address, pointer, previewLimit: previewLimit, now: now)
        }
        return filter.isEmpty ? all : all.filter(filter.matches)
    }

    /// Every key of one scanner (nil: of all), grouped by container, narrowed by `filter`;
    /// containers with nothing left are dropped unless they report a problem.
    public func sections(
        scanner: String?, filter: InspectorFilter = InspectorFilter(), previewLimit: Int = 80,
        now: ContinuousClock.Instant = .now
    ) -> [InspectorSection] {
        // In table order (natural by key first), so each group is in order.
        var grouped: [String: [PreferenceAddress]] = [:]
        for address in orderedAddresses where scanner == nil || address.scanner == scanner {
            grouped[address.scanner + "\u{0}" + address.container, default: []].append(address)
        }
        var sections: [InspectorSection] = []
        let known = containers.filter { scanner == nil || $0.scanner == scanner }
        var seen = Set<String>()
        for container in known { seen.insert(container.scanner + "\u{0}" + container.name) }
        let extra = grouped.keys.filter { !seen.contains($0) }.compactMap { id -> Wire.Container? in
            guard let first = grouped[id]?.first else { return nil }
            return Wire.Container(scanner: first.scanner, name: first.container, writable: true)
        }
        let sizes = containerSizes()
        for container in (known + extra).sorted(by: { ($0.scanner, $0.name) < ($1.scanner, $1.name) }) {
            let id = container.scanner + "\u{0}" + container.name
            let rows = (grouped[id] ?? []).compactMap { items[$0] }
                .map { keyRow($0, previewLimit: previewLimit, now: now) }
                .filter { filter.isEmpty || filter.matches($0) || filter.matches(container.name) }
            guard !rows.isEmpty || (container.problem != nil && filter.isEmpty) else { continue }
            sections.append(
                InspectorSection(
                    scanner: container.scanner, container: container.name, problem: container.problem,
                    sizeWarning: sizes[Self.place(container)]?.warning, rows: rows))
        }
        return sections
    }

    /// The row of one key, or nil when it is gone.
    public func row(for address: PreferenceAddress, previewLimit: Int = 80, now: ContinuousClock.Instant = .now)
        -> InspectorRow?
    {
        items[address].map { keyRow($0, previewLimit: previewLimit, now: now) }
    }

    // MARK: - Row builders

    private func scannerRow(_ scanner: Wire.Scanner) -> InspectorRow {
        var flags: [InspectorRow.Flag] = []
        if !scanner.writable || !canEdit { flags.append(.readOnly) }
        return InspectorRow(
            target: .scanner(scanner.id), title: VisibleText.escaped(scanner.id), subtitle: VisibleText.escaped(scanner.name), type: nil,
            preview: scanner.secret ? "secrets" : "", count: count(scanner: scanner.id), flags: flags,
            problem: scanner.available ? nil : (scanner.reason ?? "unavailable"), isOpenable: true,
            isEditable: false, isDeletable: false, isRevealable: false)
    }

    /// Each container's size as `jarvis check` measures it (``ContainerSize``), from the items
    /// the state holds, by container address (key empty).
    public func containerSizes() -> [PreferenceAddress: ContainerSize] {
        ContainerSize.byContainer(items.values)
    }

    /// A container's address, as ``containerSizes()`` keys it.
    static func place(_ container: Wire.Container) -> PreferenceAddress {
        PreferenceAddress(scanner: container.scanner, container: container.name, key: "")
    }

    private func containerRow(_ container: Wire.Container, size: ContainerSize?) -> InspectorRow {
        var row = InspectorRow(
            target: .container(scanner: container.scanner, name: container.name), title: VisibleText.escaped(container.name),
            subtitle: nil, type: nil, preview: "", count: count(scanner: container.scanner, container: container.name),
            flags: container.writable && canEdit ? [] : [.readOnly], problem: container.problem, isOpenable: true,
            isEditable: false, isDeletable: false, isRevealable: false)
        row.sizeWarning = size?.warning
        return row
    }

    private func keyRow(_ stored: PreferenceItem, previewLimit: Int, now: ContinuousClock.Instant) -> InspectorRow {
        let address = stored.address
        let item = shown(address) ?? stored
        let unset = Self.isUnset(item)
        var flags: [InspectorRow.Flag] = []
        if unset {
            flags.append(.unset)
        } else if item.layer == .registered {
            flags.append(.registeredDefault)
        }
        if item.isMasked { flags.append(.masked) }
        if revealed[address] != nil { flags.append(.revealed) }
        if item.encoding != nil { flags.append(.encoded) }
        if item.isPlaceholder { flags.append(.placeholder) }
        let writable = canEdit && item.isWritable
        if !writable { flags.append(.readOnly) }
        if isRecentlyChanged(address, now: now) { flags.append(.changed) }
        let members = item.value.flatMap(Self.memberCount)
        return InspectorRow(
            target: .key(address), title: VisibleText.escaped(address.key), subtitle: VisibleText.escaped(address.container), type: item.type,
            preview: Self.preview(item, limit: previewLimit), count: unset || item.isMasked ? nil : members,
            flags: flags, problem: nil, isOpenable: !unset && members != nil,
            isEditable: writable && !item.isMasked && !item.isPlaceholder,
            // Deleting an unset or registered-only key has nothing to delete.
            isDeletable: writable && !unset && item.layer == .stored,
            isRevealable: item.isMasked && canReveal,
            // A reset is offered where a default (the catalog's) would apply once the value goes.
            isResettable: writable && !unset && !item.isPlaceholder && item.layer == .stored
                && item.catalog?.defaultValue != nil,
            isReplaceable: writable && item.isMasked && !item.isPlaceholder,
            encoding: item.encoding,
            previous: flags.contains(.changed) ? previousPreview(of: address, limit: previewLimit, now: now) : nil,
            quickEdit: writable && !item.isMasked && !item.isPlaceholder
                ? InspectorQuickEdit.fitting(item.type, choices: item.catalog?.allowedValues ?? []) : nil,
            isAppendable: writable && !unset && !item.isMasked && !item.isPlaceholder && item.type == .array)
    }

    private func memberRows(
        _ address: PreferenceAddress, _ pointer: JSONPointer, previewLimit: Int, now: ContinuousClock.Instant
    ) -> [InspectorRow] {
        guard let item = shown(address), let value = value(at: address, pointer) else { return [] }
        let writable = canEdit && item.isWritable && !item.isPlaceholder
        let changed = isRecentlyChanged(address, now: now)
        func row(_ name: String, _ member: PreferenceValue) -> InspectorRow {
            let count = Self.memberCount(member)
            return InspectorRow(
                target: .member(address, JSONPointer(tokens: pointer.tokens + [name])), title: VisibleText.escaped(name), subtitle: nil,
                type: member.type, preview: ValueFormat.preview(member, limit: previewLimit), count: count,
                flags: (writable ? [] : [.readOnly]) + (changed ? [.changed] : []), problem: nil,
                isOpenable: count != nil, isEditable: writable, isDeletable: writable, isRevealable: false,
                quickEdit: writable ? InspectorQuickEdit.fitting(member.type, choices: []) : nil,
                isAppendable: writable && member.type == .array)
        }
        switch value {
        case .dictionary(let members): return members.sorted { $0.key.naturallyBefore($1.key) }.map { row($0.key, $0.value) }
        case .array(let elements): return elements.enumerated().map { row(String($0.offset), $0.element) }
        default: return []
        }
    }

    // MARK: - Texts

    /// What a row shows for an item's value: the value, the mask, or that it is unset and
    /// which default applies.
    public static func preview(_ item: PreferenceItem, limit: Int = 80) -> String {
        if isUnset(item) {
            guard let fallback = item.catalog?.defaultValue else { return "unset" }
            return "unset (default: " + ValueFormat.preview(fallback, limit: max(8, limit - 18)) + ")"
        }
        if let mask = item.mask {
            return
                "•••••• (\(mask.length) \(item.type == .string ? "chars" : "bytes"), fingerprint \(mask.fingerprint))"
        }
        guard let value = item.value else { return "" }
        return ValueFormat.preview(value, limit: limit)
    }

    /// Members of a dictionary or array; nil for scalars.
    static func memberCount(_ value: PreferenceValue) -> Int? {
        switch value {
        case .dictionary(let members): return members.count
        case .array(let elements): return elements.count
        default: return nil
        }
    }
}
