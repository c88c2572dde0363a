#if canImport(Security)
    import Foundation
    import JarvisCore
    import Security

    /// The Keychain's passwords on Apple platforms: generic passwords grouped by service
    /// (`kSecClassGenericPassword`, container = `kSecAttrService`) or internet passwords grouped
    /// by server (`kSecClassInternetPassword`, container = `kSecAttrServer`); key = account.
    ///
    /// A change to an existing key is `SecItemUpdate` of the data alone, so accessibility,
    /// access group, synchronization and every other attribute stay as they were; a new key is
    /// `SecItemAdd` (generic passwords only). On macOS it reads the data protection keychain
    /// (the one apps and their access groups see, as on iOS) so that listing never raises a
    /// password prompt for another application's item in the legacy login keychain.
    struct KeychainBackend: SecretBackend {
        /// Which kind of Keychain item.
        enum Kind: Sendable {
            case generic
            case internet
        }

        let kind: Kind
        /// The container of items that name no service or server.
        static let unnamed = "other"
        let unavailableReason: String? = nil

        var name: String { kind == .generic ? "keychain" : "keychain-internet" }
        var createsContainers: Bool { kind == .generic }

        private var itemClass: CFString { kind == .generic ? kSecClassGenericPassword : kSecClassInternetPassword }
        private var containerAttribute: CFString { kind == .generic ? kSecAttrService : kSecAttrServer }

        func containers() throws -> [ContainerInfo] {
            Set(try accounts().map(\.container)).sorted().map { ContainerInfo($0) }
        }

        func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            var seen: Set<String> = []
            var entries: [ScannedEntry] = []
            for (container, account) in try accounts() where container == request.container {
                guard request.keys?.contains(account) ?? true, seen.insert(account).inserted else { continue }
                // An item that cannot be read now (locked device, needs authentication) is left out.
                guard let data = try? secret(container: container, account: account) else { continue }
                entries.append(ScannedEntry(key: account, value: SecretBytes.value(Array(data))))
            }
            return entries
        }

        func write(_ request: WriteRequest) throws {
            let query = itemQuery(container: request.container, account: request.key)
            switch request.change {
            case .set(let value):
                let data = Data(try SecretBytes.bytes(value, key: request.key).bytes)
                let status = SecItemUpdate(query as CFDictionary, [kSecValueData: data] as CFDictionary)
                if status == errSecItemNotFound {
                    guard kind == .generic else {
                        throw JarvisError(
                            .readOnly,
                            "new internet passwords are not created here; add '\(request.key)' with Keychain Access")
                    }
                    var attributes = baseQuery()
                    attributes[kSecAttrService] = request.container
                    attributes[kSecAttrAccount] = request.key
                    attributes[kSecValueData] = data
                    try Self.check(SecItemAdd(attributes as CFDictionary, nil), "add '\(request.key)' to the Keychain")
                } else {
                    try Self.check(status, "update '\(request.key)' in the Keychain")
                }
            case .delete:
                let status = SecItemDelete(query as CFDictionary)
                if status == errSecItemNotFound { throw JarvisError.noKey(request.key, in: request.container) }
                try Self.check(status, "delete '\(request.key)' from the Keychain")
            }
        }

        // MARK: - Queries

        private func baseQuery() -> [CFString: Any] {
            var query: [CFString: Any] = [kSecClass: itemClass]
            #if os(macOS)
                query[kSecUseDataProtectionKeychain] = true
            #endif
            return query
        }

        /// Matches the items of one account, synchronized through iCloud or not.
        private func itemQuery(container: String, account: String) -> [CFString: Any] {
            var query = baseQuery()
            // Items without a service or server are listed under `other`.
            query[containerAttribute] = container == Self.unnamed ? "" : container
            query[kSecAttrAccount] = account
            query[kSecAttrSynchronizable] = kSecAttrSynchronizableAny
            return query
        }

        /// Every (container, account) pair, without reading any secret.
        private func accounts() throws -> [(container: String, account: String)] {
            var query = baseQuery()
            query[kSecMatchLimit] = kSecMatchLimitAll
            query[kSecReturnAttributes] = true
            query[kSecAttrSynchronizable] = kSecAttrSynchronizableAny
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            try Self.check(status, "list the Keychain")
            guard let rows = result as? [[String: Any]] else { return [] }
            return rows.compactMap { row in
                guard let account = row[kSecAttrAccount as String] as? String else { return nil }
                let container =
                    (row[containerAttribute as String] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? Self.unnamed
                return (container, account)
            }
        }

        private func secret(container: String, account: String) throws -> Data {
            var query = itemQuery(container: container, account: account)
            query[kSecMatchLimit] = kSecMatchLimitOne
            query[kSecReturnData] = true
            var result: CFTypeRef?
            try Self.check(SecItemCopyMatching(query as CFDictionary, &result), "read '\(account)' from the Keychain")
            guard let data = result as? Data else {
                throw JarvisError(.storage, "the Keychain returned no data for '\(account)'")
            }
            return data
        }

        private static func check(_ status: OSStatus, _ action: String) throws(JarvisError) {
            guard status != errSecSuccess else { return }
            let message = (SecCopyErrorMessageString(status, nil) as String?) ?? "error \(status)"
            if status == errSecMissingEntitlement {
                throw JarvisError(
                    .unavailable, "cannot \(action): the app lacks a keychain access group entitlement (\(message))")
            }
            throw JarvisError(.storage, "cannot \(action): \(message) (OSStatus \(status))")
        }
    }
#endif
