import Foundation
import JarvisCore
import JarvisSystem

/// The defaults suites of Simulator apps that do not embed Jarvis, for
/// `jarvis-agent --simulator`: each app's and App Group's `Library/Preferences/*.plist`,
/// named as ``SimulatorSuiteTable`` describes.
///
/// Files are read and written through one ``PlistFolderStore`` per preferences folder, so
/// binary plists stay binary and writes are atomic. A running device's suites are edited
/// through its ``SimulatorDefaultsEditor`` instead, because its preferences daemon would not
/// see (and could overwrite) a file changed under it; the device's state is read again before
/// every write, so a device booted since the last listing is never written to directly.
final class SimulatorDefaultsStore: DefaultsStore {
    let simulators: SimulatorSet
    let selector: String?
    let apps: [GlobPattern]
    let editor: any SimulatorDefaultsEditor
    /// How long a running device's edit may take to reach the file.
    let saveWait: TimeInterval
    // The table of the last listing, and a folder store (with its parse cache) per folder.
    private let state = Locked<(table: SimulatorSuiteTable?, folders: [String: PlistFolderStore])>((nil, [:]))

    init(
        simulators: SimulatorSet, selector: String?, apps: [GlobPattern], editor: any SimulatorDefaultsEditor,
        saveWait: TimeInterval = 3
    ) {
        self.saveWait = saveWait
        self.simulators = simulators
        self.selector = selector
        self.apps = apps
        self.editor = editor
    }

    var info: ScannerInfo {
        var info = ScannerInfo(displayName: "Simulator defaults", isWritable: true)
        do {
            let devices = try simulators.devices(matching: selector)
            if devices.isEmpty {
                info.unavailableReason = "no Simulator devices in \(simulators.devicesFolder.path)"
            } else {
                // The state is not in the suites' names (they stay put across a boot): say it here.
                let labels = SimulatorSuiteTable.labels(of: devices)
                let states = devices.map { "\(labels[$0.udid] ?? $0.udid) (\($0.state))" }
                info.displayName += ": " + states.joined(separator: ", ")
            }
        } catch {
            info.unavailableReason = error.message
        }
        return info
    }

    func containers() throws -> [ContainerInfo] {
        let table = try refreshedTable()
        var result: [ContainerInfo] = []
        for (prefix, owner) in table.owners.sorted(by: { $0.key < $1.key }) {
            let store = folderStore(for: owner)
            guard store.info.unavailableReason == nil else { continue }
            for container in try store.containers() {
                var named = container
                named.name = "\(prefix)/\(container.name)"
                result.append(named)
            }
        }
        return result
    }

    func container(named name: String) throws -> ContainerInfo? {
        guard let (owner, suite) = try? locate(name), var found = try folderStore(for: owner).container(named: suite)
        else { return nil }
        found.name = name
        return found
    }

    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry] {
        let (owner, name) = try locate(suite)
        return try folderStore(for: owner).entries(in: name, keys: keys)
    }

    func storedObject(forKey key: String, in suite: String) throws -> Any? {
        let (owner, name) = try locate(suite)
        return try folderStore(for: owner).storedObject(forKey: key, in: name)
    }

    func setObject(_ object: Any?, forKey key: String, in suite: String) throws -> WriteResult {
        let (owner, name) = try locate(suite)
        try DefaultsSuite.validate(name)
        // The state of the last listing may be stale: read the device's own file again.
        let device: SimulatorDevice
        switch SimulatorDevice.read(folder: owner.device.folder) {
        case .success(let current): device = current
        case .failure(let skip):
            throw JarvisError(.storage, "Simulator device \(owner.device.udid) cannot be read: \(skip.reason)")
        }
        let store = folderStore(for: owner)
        guard device.state.isRunning else {
            return try store.setObject(object, forKey: key, in: name)
        }
        let plist = owner.container.preferencesFolder.appendingPathComponent("\(name).plist", isDirectory: false)
        let change: WriteRequest.Change
        if let object {
            change = .set(try PropertyListValue.decode(object, path: key).value)
        } else {
            change = .delete
        }
        try editor.apply(SimulatorDefaultsEdit(udid: device.udid, plistPath: plist.path, key: key, change: change))
        waitUntilSaved(change, forKey: key, in: name, store: store)
        // `defaults` in the device wrote the file: what it holds now is read once.
        // Its version step is unknown: no step, so a watcher reads the suite again.
        return WriteResult(entry: try store.entries(in: name, keys: [key]).first)
    }

    /// Waits (briefly) until the device's preferences daemon has saved the edit to the file, so
    /// that the hub's read-back right after the write sees it; returns either way after the
    /// deadline, and the read-back then shows what the file holds.
    private func waitUntilSaved(
        _ change: WriteRequest.Change, forKey key: String, in suite: String, store: PlistFolderStore
    ) {
        let deadline = Date().addingTimeInterval(saveWait)
        while true {
            let stored = try? store.storedObject(forKey: key, in: suite)
            let saved: Bool
            switch change {
            case .delete: saved = stored == nil
            case .set(let value):
                saved = stored.flatMap { try? PropertyListValue.decode($0, path: key).value } == value
            }
            if saved || Date() >= deadline { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    func watchTargets() -> [WatchTarget] {
        guard let table = try? refreshedTable() else { return [.schedule(every: .seconds(2))] }
        // Each watched folder costs a descriptor (kqueue on macOS, whose default limit is 256):
        // a Mac with many devices and apps is read again on a schedule instead.
        guard table.owners.count <= 128 else { return [.schedule(every: .seconds(2))] }
        return table.owners.values.map { .folder($0.container.preferencesFolder.path) }
    }

    func containers(changedAt path: String) -> [String]? {
        guard let table = state.withLock({ $0.table }) else { return nil }
        for (prefix, owner) in table.owners {
            if let suites = DefaultsSuite.suite(at: path, in: owner.container.preferencesFolder) {
                return suites.map { "\(prefix)/\($0)" }
            }
        }
        return nil
    }

    // MARK: - Names

    private func refreshedTable() throws(JarvisError) -> SimulatorSuiteTable {
        let table = try SimulatorSuiteTable(simulators: simulators, selector: selector, apps: apps)
        state.withLock { $0.table = table }
        return table
    }

    /// The owner and suite of a container name, from the last listing's table, or a fresh one
    /// when the name is not in it (an app installed since).
    private func locate(_ name: String) throws(JarvisError) -> (SimulatorSuiteTable.Owner, String) {
        if let table = state.withLock({ $0.table }), let found = table.locate(name) { return found }
        if let found = try refreshedTable().locate(name) { return found }
        throw JarvisError(
            .notFound,
            "no Simulator suite '\(name)'; names are DEVICE/APP-OR-GROUP-ID/SUITE, as `jarvis ls` lists them")
    }

    /// What a suite name opens, from the last listing's table (never listing again: the hub
    /// asks often): the folder store's answer, its aliases named as this store names suites.
    func storedNames(suite name: String, checkpoint: ChangeCheckpoint) -> StoredNames {
        guard let table = state.withLock({ $0.table }), let (owner, suite) = table.locate(name) else {
            return StoredNames(isSystem: DefaultsSuite.isSystemDomain(String(name.split(separator: "/").last ?? "")))
        }
        var names = folderStore(for: owner).storedNames(suite: suite, checkpoint: checkpoint)
        let prefix = String(name.dropLast(suite.count))
        names.aliases = names.aliases.map { prefix + $0 }
        return names
    }

    /// The Simulator's devices folder.
    var location: String? { simulators.devicesFolder.path }

    /// The suite's file in its app's (or group's) container on its device.
    func location(of name: String) -> String? {
        guard let (owner, suite) = try? locate(name) else { return nil }
        return folderStore(for: owner).location(of: suite)
    }

    private func folderStore(for owner: SimulatorSuiteTable.Owner) -> PlistFolderStore {
        let folder = owner.container.preferencesFolder
        return state.withLock { state in
            if let store = state.folders[folder.path] { return store }
            let store = PlistFolderStore(folder: folder, includeSystemDomains: false)
            state.folders[folder.path] = store
            return store
        }
    }
}

extension PreferenceScanner where Self == DefaultsScanner {
    /// The defaults suites of iOS Simulator apps that do not embed Jarvis (`jarvis-agent
    /// --simulator`): every app's and App Group's `Library/Preferences/*.plist`, named
    /// `<device>/<app or group id>/<suite>`.
    ///
    /// A shut-down device's files are edited directly (atomic, format kept). A booted
    /// device's are edited through `editor`, since its preferences daemon caches them.
    /// - Parameters:
    ///   - simulators: where the devices are; by default the current user's.
    ///   - device: `booted`, a UDID or a device name; nil for every device.
    ///   - apps: bundle ids or group ids (globs) to serve; empty for all.
    ///   - editor: how booted devices are edited; by default `xcrun simctl` where it exists.
    public static func simulator(
        _ simulators: SimulatorSet = .forCurrentUser(),
        device: String? = nil,
        apps: [String] = [],
        editor: any SimulatorDefaultsEditor = SimctlDefaultsEditor.forThisMachine()
    ) -> DefaultsScanner {
        DefaultsScanner(
            store: SimulatorDefaultsStore(
                simulators: simulators, selector: device, apps: apps.map { GlobPattern($0) }, editor: editor))
    }
}
