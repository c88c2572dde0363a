import Foundation
import JarvisCore

/// A keyring of items with attributes and a secret (the Keychain, the Secret Service), over
/// the primitives of its ``SecretItemStore``: every decision is here, the same on every
/// platform, so Linux tests the Keychain's logic.
///
/// Container: the store's container attribute (`service`, or `server` for internet
/// passwords); without one, the label's prefix before `": "`, then the `xdg:schema`
/// attribute (unless it is the generic schema, which names no program), then `other`. Key: the `account` attribute, else `username`, else the label
/// (its rest after the prefix when the prefix named the container). Two items at the same
/// place are told apart as `key#2`, `key#3`…: first the items whose own attributes name that
/// place (container attribute and `account`), then the others, each in the store's order.
///
/// A key is found by its own attributes: one `find` of the container attribute and
/// `account`. The items placed by their label or schema (other programs' items) are
/// remembered from the last listing and found again by their attributes; a `find` that
/// misses lists the keyring when the last listing is older than 30 seconds, so such items
/// are found on a fresh agent too, and a new key is not created beside one. The
/// item a keyed read found is remembered briefly, so the write the hub makes right after it
/// changes that item without looking again. A change to an existing key replaces the secret
/// alone, so every other attribute stays as it was; a new key is an item with the container
/// attribute, `account` and the label `container: key`.
struct KeyringBackend: SecretBackend {
    let store: any SecretItemStore
    let memory = Locked(Memory())

    init(store: any SecretItemStore) {
        self.store = store
    }

    var name: String { store.name }

    /// The keyring and this user: one user's keyring is the same across runs.
    var location: String { "\(store.name) of uid \(getuid())" }
    var unavailableReason: String? { store.unavailableReason }
    var createsContainers: Bool { store.createsItems }

    func containers() throws -> [ContainerInfo] {
        Set(try listing(loadSecrets: false).map(\.container)).sorted().map { ContainerInfo($0) }
    }

    /// Any name may be a keyring's container.
    func couldHave(container name: String) -> Bool { !name.isEmpty }

    /// One `find` of the container attribute, at most one item; or an item remembered from
    /// the last listing that only its label or schema places there (listed again on a miss).
    func container(named name: String) throws -> ContainerInfo? {
        guard !name.isEmpty else { return nil }
        if memory.withLock({ $0.hasStray(in: name) }) { return ContainerInfo(name) }
        let found = try store.find([store.containerAttribute: name], loadSecrets: false, limit: 1)
        if !found.isEmpty { return ContainerInfo(name) }
        try listStraysUnlessFresh()
        return memory.withLock({ $0.hasStray(in: name) }) ? ContainerInfo(name) : nil
    }

    /// Lists the keyring for its strays, unless a listing just did.
    private func listStraysUnlessFresh() throws {
        if !memory.withLock({ $0.straysAreFresh }) { _ = try listing(loadSecrets: false) }
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        guard let keys = request.keys else {
            memory.withLock { $0.forget(container: request.container) }
            return try listing(loadSecrets: true).compactMap { placed in
                guard placed.container == request.container else { return nil }
                // An item that stayed locked has no secret: skip it rather than show a false empty value.
                return placed.item.secret.map { ScannedEntry(key: placed.key, value: SecretBytes.value($0)) }
            }
        }
        return try keys.compactMap { key in
            let found = try locate(container: request.container, key: key)
            memory.withLock { $0.remember(found, container: request.container, key: key) }
            return found.item?.secret.map { ScannedEntry(key: key, value: SecretBytes.value($0)) }
        }
    }

    func store(_ request: WriteRequest) throws -> WriteResult {
        let (container, key) = (request.container, request.key)
        // The item the hub's read found just before, under its lock for this container.
        let found =
            try memory.withLock { $0.take(container: container, key: key) } ?? locate(container: container, key: key)
        switch request.change {
        case .set(let value):
            let (bytes, isText) = try SecretBytes.bytes(value, key: key)
            if let item = found.item {
                try store.update(item, secret: bytes, isText: isText)
            } else {
                guard store.createsItems else {
                    throw JarvisError(
                        .readOnly,
                        "new items are not created in \(store.name); add '\(key)' with the keyring's own tool")
                }
                try store.create(
                    attributes: [store.containerAttribute: container, Self.keyAttribute: key],
                    label: "\(container): \(key)", secret: bytes, isText: isText)
            }
            return WriteResult(entry: ScannedEntry(key: key, value: SecretBytes.value(bytes)))
        case .delete:
            guard let item = found.item else { throw JarvisError.noKey(key, in: container) }
            try store.delete(item)
            // Another item at the same place shows at the key now.
            let next = try found.next.map(loaded)
            return WriteResult(entry: next?.secret.map { ScannedEntry(key: key, value: SecretBytes.value($0)) })
        }
    }

    // MARK: - Finding one key

    /// The attribute that names an item within its container.
    static let keyAttribute = "account"

    /// What a key names: the item shown there, and the one that would show there without it.
    struct Located: Sendable {
        var item: SecretItem?
        var next: SecretItem?
    }

    /// One `find` by the key's own attributes; a second only for an item that its label or
    /// schema places there (found again by all of its attributes).
    func locate(container: String, key: String) throws -> Located {
        let (base, index) = Self.split(key)
        let exact = try store.find(
            [store.containerAttribute: container, Self.keyAttribute: base], loadSecrets: true, limit: index + 1)
        var strays = memory.withLock { $0.strays(container: container, key: base) }
        if exact.count + strays.count < index {
            try listStraysUnlessFresh()
            strays = memory.withLock { $0.strays(container: container, key: base) }
        }
        let candidates = exact + strays
        var located = Located(
            item: candidates.count >= index ? candidates[index - 1] : nil,
            next: candidates.count > index ? candidates[index] : nil)
        if located.item == nil, index > 1 {
            // `name#2` may be an account of that very name rather than a second `name`.
            let literal = try store.find(
                [store.containerAttribute: container, Self.keyAttribute: key], loadSecrets: true, limit: 2)
            located = Located(item: literal.first, next: literal.dropFirst().first)
        }
        located.item = try located.item.map(loaded)
        return located
    }

    /// The item with its secret: as found, or found again by its own attributes (an item
    /// without any is found only in a listing).
    private func loaded(_ item: SecretItem) throws -> SecretItem {
        if item.secret != nil { return item }
        return try store.find(item.attributes, loadSecrets: true, limit: nil).first { $0.id == item.id } ?? item
    }

    /// `name#2` is the second item at `name`; any other key is the first at itself.
    static func split(_ key: String) -> (base: String, index: Int) {
        guard let mark = key.lastIndex(of: "#"), let index = Int(key[key.index(after: mark)...]), index >= 2,
            String(index) == key[key.index(after: mark)...], mark > key.startIndex
        else { return (key, 1) }
        return (String(key[..<mark]), index)
    }

    // MARK: - Listing

    /// Every item at its place; remembers the items only their label or schema places.
    private func listing(loadSecrets: Bool) throws -> [Placed] {
        let placed = place(try store.find([:], loadSecrets: loadSecrets, limit: nil))
        memory.withLock { $0.replaceStrays(with: placed) }
        return placed
    }
}
