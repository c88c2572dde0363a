#if !canImport(Security)
    extension SecretsScanner {
        /// Outside Apple platforms the system keyring is the Secret Service.
        static func platformBackends(secretService: Bool) -> [any SecretBackend] {
            secretService ? [KeyringBackend(store: SecretServiceItemStore())] : []
        }
    }
#endif
