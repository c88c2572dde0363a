#if !canImport(Security)
    import Foundation
    import JarvisCore

    /// The Linux desktop keyring (GNOME Keyring, KWallet) through the Secret Service and
    /// libsecret: the items of the default collection, grouped by their `service` attribute.
    ///
    /// Container: the `service` attribute; without one, the label's prefix before `": "`, then
    /// the `xdg:schema` attribute, then `other`. Key: the `account` attribute, else `username`,
    /// else the label (its rest after the prefix when the prefix named the container). Two items
    /// at the same place are told apart as `key#2`, `key#3`… in a stable order.
    struct SecretServiceBackend: SecretBackend {
        let name = "secret-service"
        let createsContainers = true

        var unavailableReason: String? {
            if case .failure(let error) = LibSecret.shared { return error.message }
            return nil
        }

        func containers() throws -> [ContainerInfo] {
            let names = Set(try placed(loadSecrets: false).map(\.container))
            return names.sorted().map { ContainerInfo($0) }
        }

        func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            try placed(loadSecrets: true).compactMap { entry in
                guard entry.container == request.container, request.keys?.contains(entry.key) ?? true else {
                    return nil
                }
                // An item that stayed locked has no secret: skip it rather than show a false empty value.
                guard let secret = entry.item.secret else { return nil }
                return ScannedEntry(key: entry.key, value: SecretBytes.value(secret))
            }
        }

        func write(_ request: WriteRequest) throws {
            let library = try LibSecret.shared.get()
            let existing = try placed(loadSecrets: false).first {
                $0.container == request.container && $0.key == request.key
            }
            switch request.change {
            case .set(let value):
                let (bytes, isText) = try SecretBytes.bytes(value, key: request.key)
                if let existing {
                    try library.setSecret(path: existing.item.path, bytes: bytes, isText: isText)
                } else {
                    try library.createItem(
                        attributes: ["service": request.container, "account": request.key],
                        label: "\(request.container): \(request.key)", bytes: bytes, isText: isText)
                }
            case .delete:
                guard let existing else { throw JarvisError.noKey(request.key, in: request.container) }
                try library.deleteItem(path: existing.item.path)
            }
        }

        // MARK: - Placing items

        /// One keyring item at its place in the scanner's tree.
        struct Placed {
            var container: String
            var key: String
            var item: LibSecret.Item
        }

        private func placed(loadSecrets: Bool) throws -> [Placed] {
            try Self.requireSessionBus()
            let items = try LibSecret.shared.get().items(loadSecrets: loadSecrets)
            return Self.place(items)
        }

        /// Gives every item a container and a unique key.
        static func place(_ items: [LibSecret.Item]) -> [Placed] {
            var seen: [String: Int] = [:]
            return items.sorted { $0.path < $1.path }.map { item in
                let (container, key) = address(of: item)
                let place = container + "\u{0}" + key
                let count = seen[place, default: 0] + 1
                seen[place] = count
                return Placed(container: container, key: count == 1 ? key : "\(key)#\(count)", item: item)
            }
        }

        static func address(of item: LibSecret.Item) -> (container: String, key: String) {
            let attributes = item.attributes
            let labelParts = item.label.split(separator: ": ", maxSplits: 1).map(String.init)
            let account = nonEmpty(attributes["account"]) ?? nonEmpty(attributes["username"])
            if let service = nonEmpty(attributes["service"]) {
                return (service, account ?? item.label)
            }
            if labelParts.count == 2, let prefix = nonEmpty(labelParts[0]) {
                return (prefix, account ?? labelParts[1])
            }
            return (nonEmpty(attributes["xdg:schema"]) ?? "other", account ?? item.label)
        }

        private static func nonEmpty(_ text: String?) -> String? {
            guard let text, !text.isEmpty else { return nil }
            return text
        }

        /// Without a session bus, GLib would try to launch one through X11: say so instead.
        private static func requireSessionBus() throws(JarvisError) {
            let environment = ProcessInfo.processInfo.environment
            if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return }
            if let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") {
                return
            }
            throw JarvisError(
                .unavailable,
                "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset): the keyring is reachable only inside a desktop or `dbus-run-session` session"
            )
        }
    }
#endif
