#if !canImport(Security)
    import Foundation
    import JarvisCore

    /// The Linux desktop keyring (GNOME Keyring, KWallet): the items of the default collection
    /// through the Secret Service and libsecret, as a ``SecretItemStore``. Items come in the
    /// order of their object paths; a `find` is one search of the collection by attributes.
    struct SecretServiceItemStore: SecretItemStore {
        let name = "secret-service"
        let containerAttribute = "service"
        let createsItems = true

        var unavailableReason: String? {
            if case .failure(let error) = LibSecret.shared { return error.message }
            return nil
        }

        func find(_ query: [String: String], loadSecrets: Bool, limit: Int?) throws -> [SecretItem] {
            let items = try library().search(query, loadSecrets: loadSecrets)
            return limit.map { Array(items.prefix($0)) } ?? items
        }

        func create(attributes: [String: String], label: String, secret: [UInt8], isText: Bool) throws {
            try library().createItem(attributes: attributes, label: label, bytes: secret, isText: isText)
        }

        func update(_ item: SecretItem, secret: [UInt8], isText: Bool) throws {
            try library().setSecret(path: item.id, bytes: secret, isText: isText)
        }

        func delete(_ item: SecretItem) throws {
            try library().deleteItem(path: item.id)
        }

        private func library() throws(JarvisError) -> LibSecret {
            try Self.requireSessionBus()
            return try LibSecret.shared.get()
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
