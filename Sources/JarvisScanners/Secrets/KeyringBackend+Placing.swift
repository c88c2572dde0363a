import JarvisCore

/// Where each item of a keyring shows: its container and its unique key there.
extension KeyringBackend {
    /// One keyring item at its place in the scanner's tree.
    struct Placed: Sendable {
        var container: String
        /// The key shown: ``name``, or `name#2`… for a later item at the same place.
        var key: String
        /// The key before duplicates are numbered.
        var name: String
        var item: SecretItem
        /// Whether the item's own attributes name its place (container attribute and
        /// `account`), so a `find` of them reaches it; otherwise its label or schema placed it.
        var isExact: Bool
    }

    /// Gives every item a container and a unique key: at each place, first the items whose
    /// attributes name it, then the others, each in the store's order.
    func place(_ items: [SecretItem]) -> [Placed] {
        let addressed = items.map { item in
            let (container, key) = address(of: item)
            let exact =
                item.attributes[store.containerAttribute] == container && item.attributes[Self.keyAttribute] == key
            return Placed(container: container, key: key, name: key, item: item, isExact: exact)
        }
        var seen: [String: Int] = [:]
        return (addressed.filter(\.isExact) + addressed.filter { !$0.isExact }).map { placed in
            let place = placed.container + "\u{0}" + placed.name
            let count = seen[place, default: 0] + 1
            seen[place] = count
            var numbered = placed
            if count > 1 { numbered.key += "#\(count)" }
            return numbered
        }
    }

    /// The container and key an item shows at, before duplicates are numbered.
    func address(of item: SecretItem) -> (container: String, key: String) {
        let attributes = item.attributes
        let labelParts = item.label.split(separator: ": ", maxSplits: 1).map(String.init)
        let account = Self.nonEmpty(attributes[Self.keyAttribute]) ?? Self.nonEmpty(attributes["username"])
        if let container = Self.nonEmpty(attributes[store.containerAttribute]) {
            return (container, account ?? item.label)
        }
        if labelParts.count == 2, let prefix = Self.nonEmpty(labelParts[0]) {
            return (prefix, account ?? labelParts[1])
        }
        return (Self.namingSchema(attributes["xdg:schema"]) ?? "other", account ?? item.label)
    }

    /// The generic schema that `secret-tool` and most programs use for any password: it names
    /// no program, and GNOME Keyring records it on some items and not on others made the same
    /// way, so an item under it shows in `other` whether or not the keyring kept it.
    static let genericSchema = "org.freedesktop.Secret.Generic"

    /// A schema that says which program an item belongs to.
    private static func namingSchema(_ schema: String?) -> String? {
        guard let schema = nonEmpty(schema), schema != genericSchema else { return nil }
        return schema
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
