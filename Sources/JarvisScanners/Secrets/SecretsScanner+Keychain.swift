#if canImport(Security)
    extension SecretsScanner {
        /// On Apple platforms the system keyring is the Keychain: generic passwords, then
        /// internet passwords. There is no Secret Service there, so `secretService` is ignored.
        static func platformBackends(secretService: Bool) -> [any SecretBackend] {
            [
                KeyringBackend(store: KeychainItemStore(kind: .generic)),
                KeyringBackend(store: KeychainItemStore(kind: .internet)),
            ]
        }
    }
#endif
