#if canImport(Security)
    import Foundation
    import JarvisCore
    import Security

    /// The Keychain's passwords on Apple platforms as a ``SecretItemStore``: generic passwords
    /// (`kSecClassGenericPassword`, container attribute `service`) or internet passwords
    /// (`kSecClassInternetPassword`, container attribute `server`); `account` and the label
    /// too. Item ids are persistent references.
    ///
    /// A `find` is one `SecItemCopyMatching` of the attributes asked for, with the limit asked
    /// for: `kSecMatchLimitAll` only for a listing. A change is `SecItemUpdate` of the data
    /// alone, so accessibility, access group, synchronization and every other attribute stay as
    /// they were; a new item is `SecItemAdd` (generic passwords only). On macOS it uses the
    /// data protection keychain (the one apps and their access groups see, as on iOS) so that
    /// nothing raises a password prompt for another application's item in the login keychain.
    struct KeychainItemStore: SecretItemStore {
        /// Which kind of Keychain item.
        enum Kind: Sendable {
            case generic
            case internet
        }

        let kind: Kind
        let unavailableReason: String? = nil

        var name: String { kind == .generic ? "keychain" : "keychain-internet" }
        var containerAttribute: String { kind == .generic ? "service" : "server" }
        var createsItems: Bool { kind == .generic }

        private var itemClass: CFString { kind == .generic ? kSecClassGenericPassword : kSecClassInternetPassword }

        /// The attributes a query may name, and their Keychain keys.
        private var keys: [String: CFString] {
            [
                containerAttribute: kind == .generic ? kSecAttrService : kSecAttrServer, "account": kSecAttrAccount,
                "label": kSecAttrLabel,
            ]
        }

        func find(_ query: [String: String], loadSecrets: Bool, limit: Int?) throws -> [SecretItem] {
            var search = baseQuery()
            for (name, value) in query {
                // An attribute the Keychain does not have matches no item.
                guard let key = keys[name] else { return [] }
                search[key] = value
            }
            search[kSecAttrSynchronizable] = kSecAttrSynchronizableAny
            search[kSecReturnAttributes] = true
            search[kSecReturnPersistentRef] = true
            switch limit {
            case nil: search[kSecMatchLimit] = kSecMatchLimitAll
            case 1?: search[kSecMatchLimit] = kSecMatchLimitOne
            case let count?: search[kSecMatchLimit] = count as NSNumber
            }
            // A listing reads each secret apart, so one that needs authentication is left out
            // alone; a keyed find reads the few it finds at once.
            let listing = limit == nil
            if loadSecrets && !listing { search[kSecReturnData] = true }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            try Self.check(status, "search the Keychain")
            let rows = (result as? [[String: Any]]) ?? (result as? [String: Any]).map { [$0] } ?? []
            return rows.compactMap { row in
                guard let reference = row[kSecValuePersistentRef as String] as? Data else { return nil }
                var attributes: [String: String] = [:]
                for (name, key) in keys {
                    if let value = row[key as String] as? String, !value.isEmpty, name != "label" {
                        attributes[name] = value
                    }
                }
                var secret = (row[kSecValueData as String] as? Data).map { [UInt8]($0) }
                if loadSecrets && listing { secret = try? self.secret(reference) }
                return SecretItem(
                    id: reference.base64EncodedString(), label: row[kSecAttrLabel as String] as? String ?? "",
                    attributes: attributes, secret: secret)
            }
        }

        func create(attributes: [String: String], label: String, secret: [UInt8], isText: Bool) throws {
            guard kind == .generic else {
                throw JarvisError(
                    .readOnly, "new internet passwords are not created here; add one with Keychain Access")
            }
            var item = baseQuery()
            for (name, value) in attributes {
                guard let key = keys[name] else { continue }
                item[key] = value
            }
            item[kSecValueData] = Data(secret)
            try Self.check(SecItemAdd(item as CFDictionary, nil), "add an item to the Keychain")
        }

        func update(_ item: SecretItem, secret: [UInt8], isText: Bool) throws {
            let status = SecItemUpdate(try query(item) as CFDictionary, [kSecValueData: Data(secret)] as CFDictionary)
            try Self.check(status, "update '\(item.attributes["account"] ?? item.label)' in the Keychain")
        }

        func delete(_ item: SecretItem) throws {
            try Self.check(
                SecItemDelete(try query(item) as CFDictionary),
                "delete '\(item.attributes["account"] ?? item.label)' from the Keychain")
        }

        // MARK: - Queries

        private func baseQuery() -> [CFString: Any] {
            var query: [CFString: Any] = [kSecClass: itemClass]
            #if os(macOS)
                query[kSecUseDataProtectionKeychain] = true
            #endif
            return query
        }

        /// The one item a find returned, by its persistent reference.
        private func query(_ item: SecretItem) throws(JarvisError) -> [CFString: Any] {
            guard let reference = Data(base64Encoded: item.id) else {
                throw JarvisError(.notFound, "the Keychain item changed or was removed meanwhile; list again")
            }
            var query = baseQuery()
            query[kSecValuePersistentRef] = reference
            return query
        }

        private func secret(_ reference: Data) throws -> [UInt8] {
            var query = baseQuery()
            query[kSecValuePersistentRef] = reference
            query[kSecReturnData] = true
            query[kSecMatchLimit] = kSecMatchLimitOne
            var result: CFTypeRef?
            try Self.check(SecItemCopyMatching(query as CFDictionary, &result), "read a Keychain item")
            guard let data = result as? Data else {
                throw JarvisError(.storage, "the Keychain returned no data for an item")
            }
            return [UInt8](data)
        }

        private static func check(_ status: OSStatus, _ action: String) throws(JarvisError) {
            guard status != errSecSuccess else { return }
            let message = (SecCopyErrorMessageString(status, nil) as String?) ?? "error \(status)"
            if status == errSecItemNotFound {
                throw JarvisError(.notFound, "cannot \(action): the item changed or was removed meanwhile; list again")
            }
            if status == errSecMissingEntitlement {
                throw JarvisError(
                    .unavailable, "cannot \(action): the app lacks a keychain access group entitlement (\(message))")
            }
            throw JarvisError(.storage, "cannot \(action): \(message) (OSStatus \(status))")
        }
    }
#endif
