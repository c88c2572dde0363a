import JarvisCore

/// One item of a keyring as its store reports it.
struct SecretItem: Sendable, Hashable {
    /// The store's handle for the item (a D-Bus object path, a Keychain persistent
    /// reference): what an update or a delete names.
    var id: String
    /// The item's label; empty when it has none.
    var label: String
    /// The item's attributes (`service`, `server`, `account`, `username`, `xdg:schema`, …).
    var attributes: [String: String]
    /// The secret's bytes; nil when not asked for, or when the item could not be read (locked,
    /// needs authentication).
    var secret: [UInt8]?
}

/// The primitives of a keyring of items with attributes and a secret (the Keychain, the
/// Secret Service): find, create, replace a secret, delete. Nothing else: where an item shows,
/// what a write sends and how a name is routed are ``KeyringBackend``'s, the same for every
/// store, so Linux tests the Keychain's logic over another store.
///
/// Rules for implementers:
/// - `find` matches every attribute of the query exactly and returns the items in an order
///   that stays the same between calls, at most `limit` of them (the first ones of that
///   order). Only an empty query lists every item, and only listings ask that.
/// - `update` and `delete` act on the item found, by its ``SecretItem/id``; no call but a
///   listing looks at other items.
/// - Throw ``JarvisError`` with a message a person can act on.
protocol SecretItemStore: Sendable {
    /// A short name (`secret-service`, `keychain`): shown when the store cannot work, and in
    /// a container name that another backend already uses (`name@keychain`).
    var name: String { get }

    /// Nil when the store can work here; otherwise why not.
    var unavailableReason: String? { get }

    /// The attribute that groups items into containers (`service`, or `server` for internet
    /// passwords); `account` names an item within one.
    var containerAttribute: String { get }

    /// Whether Jarvis may add items (and so create containers).
    var createsItems: Bool { get }

    /// The items whose attributes include every attribute of `query`.
    /// - Parameters:
    ///   - loadSecrets: whether to read each item's secret too.
    ///   - limit: at most this many items; nil for all of them.
    func find(_ query: [String: String], loadSecrets: Bool, limit: Int?) throws -> [SecretItem]

    /// Adds an item.
    func create(attributes: [String: String], label: String, secret: [UInt8], isText: Bool) throws

    /// Replaces the secret of an item found before, keeping its label and attributes.
    func update(_ item: SecretItem, secret: [UInt8], isText: Bool) throws

    /// Removes an item found before.
    func delete(_ item: SecretItem) throws
}
