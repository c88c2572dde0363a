import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// The logic every keyring shares (the Keychain's and the Secret Service's), over a keyring in
/// memory that counts its calls: where items show, and that a write through the hub finds its
/// item once, by the item's own attributes, and lists nothing once a client has looked at the
/// keyring (as the client of a working session has); a fresh agent lists once on a miss.
final class KeyringBackendTests {
    let store = MemoryItemStore()
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("jarvis-keyring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        store.seed("GitHub: ada", ["service": "github.com", "account": "ada"], secret: "ghp-old")
        store.seed("GitLab: ada", ["service": "gitlab.com", "account": "ada"], secret: "glpat-1")
        store.seed("Chrome Safe Storage", ["xdg:schema": "chrome_libsecret_os_crypt_password_v2"], secret: "c")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A hub over the keyring (and folders), listed once as a client's first look would, the
    /// calls counted from then on; `warm: false` for an agent that has listed nothing yet.
    func hub(folders: [String] = [], warm: Bool = true) throws -> JarvisHub {
        var backends: [any SecretBackend] = [KeyringBackend(store: store)]
        for name in folders {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            backends.append(SecretFilesBackend(folder: folder))
        }
        let hub = JarvisHub(configuration: .debug)
        hub.register(SecretsScanner(backends: backends))
        if warm { _ = try hub.list(ListQuery()) }
        store.resetCalls()
        return hub
    }

    func address(_ container: String, _ key: String) -> PreferenceAddress {
        PreferenceAddress(scanner: "secrets", container: container, key: key)
    }

    // MARK: - One lookup per write

    @Test func setOfAKeyFindsItsItemOnceAndListsNothing() throws {
        let hub = try hub()
        store.resetCalls()
        let item = try hub.set(address("github.com", "ada"), to: "ghp-new-value")
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, updates: 1))
        #expect(store.secrets(["service": "github.com", "account": "ada"]) == ["ghp-new-value"])
        // The answer is what was stored, masked, without reading it back.
        #expect(item.value == nil && item.mask?.length == 13)
    }

    @Test func setOfANewKeyInANewContainerFindsNothingOnceThenCreates() throws {
        let hub = try hub()
        store.resetCalls()
        try hub.set(address("myapp", "api_key"), to: "k-1")
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, creates: 1))
        store.resetCalls()
        try hub.set(address("myapp", "api_key"), to: "k-2")
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, updates: 1))
        #expect(store.secrets(["service": "myapp", "account": "api_key"]) == ["k-2"])
    }

    @Test func deleteFindsItsItemOnce() throws {
        let hub = try hub()
        store.resetCalls()
        try hub.delete(address("gitlab.com", "ada"))
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, deletes: 1))
        #expect(store.secrets(["service": "gitlab.com"]).isEmpty)
        store.resetCalls()
        #expect(throws: JarvisError.self) { try hub.delete(self.address("gitlab.com", "ada")) }
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1))
    }

    @Test func expectedRevisionIsCheckedAgainstTheItemFound() throws {
        let hub = try hub()
        let seen = try hub.get(address("github.com", "ada")).revision
        store.resetCalls()
        try hub.set(address("github.com", "ada"), to: "first", expectedRevision: seen)
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, updates: 1))
        #expect(throws: JarvisError.self) {
            try hub.set(self.address("github.com", "ada"), to: "second", expectedRevision: seen)
        }
        #expect(store.secrets(["service": "github.com", "account": "ada"]) == ["first"])
    }

    // MARK: - Routing without listing

    @Test func aNameIsRoutedWithoutListing() throws {
        let scanner = SecretsScanner(backends: [KeyringBackend(store: store)])
        _ = try scanner.containers()
        store.resetCalls()
        // A write goes to the keyring whether or not it has the container: nothing to look up.
        #expect(try scanner.writeContainer(named: "github.com") == ContainerInfo("github.com"))
        #expect(store.calls == MemoryItemStore.Calls())
        // A request that names only a container learns whether it exists: one lookup, limit 1.
        #expect(try scanner.container(named: "github.com") == ContainerInfo("github.com"))
        #expect(try scanner.container(named: "missing") == ContainerInfo("missing", exists: false))
        #expect(store.calls == MemoryItemStore.Calls(lookups: 2))
    }

    @Test func aFreshAgentListsOnceToFindItemsPlacedByTheirLabelOrSchema() throws {
        let hub = try hub(warm: false)
        let chrome = address("chrome_libsecret_os_crypt_password_v2", "Chrome Safe Storage")
        #expect(try hub.get(chrome).mask?.length == 1)
        #expect(store.calls.listings == 1, "the miss by attributes lists the keyring once")
        #expect(try hub.get(chrome).mask?.length == 1)
        try hub.set(address("myapp", "api_key"), to: "k-1")
        #expect(store.calls.listings == 1, "a listing is trusted for the misses that follow it")
        // Changed in place, not created beside it.
        try hub.set(chrome, to: "c-2")
        #expect(store.secrets(["xdg:schema": "chrome_libsecret_os_crypt_password_v2"]) == ["c-2"])
    }

    /// A write to a hidden container asks the keyring what a write to a missing one asks, on
    /// a stand-in name: the same kinds of search, so neither tells them apart.
    @Test func aHiddenContainerIsAskedAboutAsAMissingOneIs() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "secrets")
        let hub = JarvisHub(configuration: configuration)
        hub.register(SecretsScanner(backends: [KeyringBackend(store: store)]))
        store.seed("private_api: token", ["service": "private_api", "account": "token"], secret: "s")
        _ = try hub.list(ListQuery())
        func shapes(_ body: () throws -> Void) -> [String] {
            store.resetCalls()
            #expect(throws: JarvisError.self) { try body() }
            return store.shapes
        }
        let hidden = shapes { try hub.delete(address("private_api", "token")) }
        let missing = shapes { try hub.delete(address("nowhere_at_all", "token")) }
        #expect(!hidden.isEmpty && hidden == missing, "hidden \(hidden), missing \(missing)")
    }

    @Test func aContainerOfAnotherScannerStaysItsOwn() throws {
        let hub = try hub()
        hub.register(MemoryScanner(id: "prefs", contents: ["com.example.app": ["theme": "dark"]]))
        #expect(try hub.owner(ofContainer: "com.example.app").scanner == "prefs")
        #expect(try hub.owner(ofContainer: "github.com").scanner == "secrets")
        #expect(store.calls.listings == 0)
    }

    @Test func foldersAndTheKeyringShareNamesAsTheListingShowsThem() throws {
        store.seed("shared: token", ["service": "shared", "account": "token"], secret: "from-keyring")
        let hub = try hub(folders: ["app-secrets", "shared"])
        let listed = try SecretsScanner(backends: [KeyringBackend(store: store)]).containers().map(\.name)
        #expect(listed.contains("shared"))
        store.resetCalls()
        // A folder's own name, routed as the client's listing just showed it: the keyring is
        // not asked at all.
        try hub.set(address("app-secrets", "db_password"), to: "hunter2")
        #expect(store.calls == MemoryItemStore.Calls())
        let file = root.appendingPathComponent("app-secrets/db_password")
        #expect(try String(contentsOf: file, encoding: .utf8) == "hunter2")
        // The keyring has `shared`, so the folder of that name is `shared@files`.
        try hub.set(address("shared", "token"), to: "keyring-2")
        try hub.set(address("shared@files", "token"), to: "folder-1")
        #expect(store.secrets(["service": "shared"]) == ["keyring-2"])
        #expect(
            try String(contentsOf: root.appendingPathComponent("shared/token"), encoding: .utf8) == "folder-1")
        #expect(store.calls.listings == 0)
        let names = try hub.list(ListQuery()).items.map { "\($0.address.container)/\($0.address.key)" }
        #expect(names.contains("shared/token") && names.contains("shared@files/token"))
    }

    /// As on Apple platforms: generic passwords, then internet passwords, which Jarvis does not
    /// create. A key of the first is found with one lookup; a name only the second has is
    /// settled by asking each for the name once.
    @Test func genericThenInternetPasswordsAreRoutedAsTheListingShowsThem() throws {
        let internet = MemoryItemStore(name: "keychain-internet", containerAttribute: "server", createsItems: false)
        internet.seed("example.com", ["server": "example.com", "account": "bob"], secret: "web-1")
        internet.seed("github.com", ["server": "github.com", "account": "ada"], secret: "web-2")
        let hub = JarvisHub(configuration: .debug)
        hub.register(SecretsScanner(backends: [KeyringBackend(store: store), KeyringBackend(store: internet)]))
        func calls() -> [MemoryItemStore.Calls] { [store.calls, internet.calls] }
        func reset() {
            store.resetCalls()
            internet.resetCalls()
        }
        _ = try hub.list(ListQuery())

        reset()
        try hub.set(address("github.com", "ada"), to: "ghp-2")
        #expect(calls() == [MemoryItemStore.Calls(lookups: 1, updates: 1), MemoryItemStore.Calls()])
        #expect(internet.secrets(["server": "github.com"]) == ["web-2"])

        // A new key in a container of the first, routed as the listing showed it: one lookup
        // of the key, then the new item.
        reset()
        try hub.set(address("gitlab.com", "bob"), to: "glpat-2")
        #expect(calls() == [MemoryItemStore.Calls(lookups: 1, creates: 1), MemoryItemStore.Calls()])

        reset()
        try hub.set(address("example.com", "bob"), to: "web-changed")
        #expect(calls() == [MemoryItemStore.Calls(), MemoryItemStore.Calls(lookups: 1, updates: 1)])
        #expect(internet.secrets(["server": "example.com"]) == ["web-changed"])
        #expect(store.secrets(["service": "example.com"]).isEmpty)

        reset()
        try hub.set(address("newapp", "token"), to: "t-1")
        #expect(calls() == [MemoryItemStore.Calls(lookups: 2, creates: 1), MemoryItemStore.Calls(lookups: 1)])
        #expect(store.secrets(["service": "newapp"]) == ["t-1"])
        #expect(throws: JarvisError.self) { try hub.set(self.address("example.com", "eve"), to: "x") }
        #expect(store.calls.listings == 0 && internet.calls.listings == 0)
        let names = try hub.list(ListQuery()).items.map { "\($0.address.container)/\($0.address.key)" }
        #expect(names.contains("github.com@keychain-internet/ada") && names.contains("example.com/bob"))
    }

    // MARK: - Duplicates and items placed by their label

    @Test func duplicatesAreToldApartAndWrittenOneByOne() throws {
        store.seed("s: a", ["service": "s", "account": "a"], secret: "one")
        store.seed("s: a", ["service": "s", "account": "a"], secret: "two")
        store.seed("by username", ["service": "s", "username": "a"], secret: "three")
        let hub = try hub()
        let listed = try hub.list(ListQuery(reveal: true)).items.filter { $0.address.container == "s" }
        #expect(listed.map(\.address.key) == ["a", "a#2", "a#3"])
        store.resetCalls()
        try hub.set(address("s", "a#2"), to: "TWO")
        #expect(store.calls == MemoryItemStore.Calls(lookups: 1, updates: 1))
        #expect(store.secrets(["service": "s", "account": "a"]) == ["one", "TWO"])
        // Placed by its username, found again by its own attributes.
        try hub.set(address("s", "a#3"), to: "THREE")
        #expect(store.secrets(["service": "s", "username": "a"]) == ["THREE"])
        try hub.delete(address("s", "a"))
        #expect(store.secrets(["service": "s", "account": "a"]) == ["TWO"])
        #expect(store.calls.listings == 0)
    }

    @Test func anItemPlacedByItsSchemaIsChangedNotDuplicated() throws {
        let hub = try hub()
        let container = "chrome_libsecret_os_crypt_password_v2"
        _ = try hub.list(ListQuery())
        try hub.set(address(container, "Chrome Safe Storage"), to: "changed")
        #expect(store.secrets(["xdg:schema": container]) == ["changed"])
        #expect(store.calls.creates == 0)
    }

    // MARK: - Placing

    func item(_ id: String, label: String, _ attributes: [String: String]) -> SecretItem {
        SecretItem(id: id, label: label, attributes: attributes, secret: nil)
    }

    @Test func serviceAndAccountComeFirst() {
        let placed = KeyringBackend(store: store).place([
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

    /// GNOME Keyring keeps `secret-tool store`'s generic schema on some items and not on others
    /// stored the same way: such an item shows in `other` either way, so it never moves.
    @Test func theGenericSchemaPlacesNothing() {
        let placed = KeyringBackend(store: store).place([
            item("/1", label: "Chrome Safe Storage", ["xdg:schema": "org.freedesktop.Secret.Generic", "application": "c"]),
            item("/2", label: "Wi-Fi", ["application": "nm"]),
            item("/3", label: "Tool: token", ["xdg:schema": "org.freedesktop.Secret.Generic"]),
        ])
        #expect(placed.map { "\($0.container)|\($0.key)" } == ["other|Chrome Safe Storage", "other|Wi-Fi", "Tool|token"])
    }

    @Test func internetPasswordsAreGroupedByServer() {
        let internet = KeyringBackend(store: MemoryItemStore(name: "keychain-internet", containerAttribute: "server"))
        let placed = internet.place([item("1", label: "example.com", ["server": "example.com", "account": "bob"])])
        #expect(placed.map { "\($0.container)|\($0.key)" } == ["example.com|bob"])
    }

    @Test func duplicatesGetStableSuffixesTheirOwnAttributesFirst() {
        let placed = KeyringBackend(store: store).place([
            item("/a", label: "s: a", ["service": "s", "username": "a"]),
            item("/b", label: "first", ["service": "s", "account": "a"]),
            item("/c", label: "second", ["service": "s", "account": "a"]),
        ])
        #expect(placed.map(\.key) == ["a", "a#2", "a#3"])
        #expect(placed.map(\.item.id) == ["/b", "/c", "/a"])
    }

    @Test func aKeyNamesItsDuplicate() {
        #expect(KeyringBackend.split("a#2") == ("a", 2))
        #expect(KeyringBackend.split("a#1") == ("a#1", 1))
        #expect(KeyringBackend.split("a#02") == ("a#02", 1))
        #expect(KeyringBackend.split("#3") == ("#3", 1))
        #expect(KeyringBackend.split("plain") == ("plain", 1))
    }
}
