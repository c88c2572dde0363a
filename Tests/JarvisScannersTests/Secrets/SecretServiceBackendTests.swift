#if !canImport(Security)
    import Testing

    @testable import JarvisScanners

    /// Where keyring items appear: pure mapping, no keyring needed (the real keyring is
    /// exercised end to end in `SecretServiceEndToEndTests`).
    struct SecretServiceBackendTests {
        func item(_ path: String, label: String, _ attributes: [String: String]) -> LibSecret.Item {
            LibSecret.Item(path: path, label: label, attributes: attributes, secret: nil)
        }

        @Test func serviceAndAccountComeFirst() {
            let placed = SecretServiceBackend.place([
                item("/1", label: "GitHub: ada", ["service": "github.com", "account": "ada"]),
                item("/2", label: "Mail: bob@example.com", ["server": "imap"]),
                item(
                    "/3", label: "Chrome Safe Storage",
                    ["xdg:schema": "chrome_libsecret_os_crypt_password_v2", "application": "chrome"]),
                item("/4", label: "Wi-Fi", [:]),
                item("/5", label: "x", ["service": "s", "username": "u"]),
            ])
            #expect(
                placed.map { "\($0.container)|\($0.key)" } == [
                    "github.com|ada", "Mail|bob@example.com",
                    "chrome_libsecret_os_crypt_password_v2|Chrome Safe Storage", "other|Wi-Fi", "s|u",
                ])
        }

        @Test func duplicatesGetStableSuffixes() {
            let placed = SecretServiceBackend.place([
                item("/b", label: "second", ["service": "s", "account": "a"]),
                item("/a", label: "first", ["service": "s", "account": "a"]),
            ])
            #expect(placed.map(\.key) == ["a", "a#2"])
            #expect(placed.map(\.item.label) == ["first", "second"])
        }
    }
#endif
