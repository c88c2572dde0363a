import Foundation
import JarvisCore

/// Several plist folders served as one defaults scanner (`jarvis-agent --defaults-dir A
/// --defaults-dir B`): a scanner id names one scanner, so the folders are merged rather than
/// registered twice. A suite present in several folders is the first folder's; a new suite
/// is created in the first folder.
final class FolderSetStore: DefaultsStore {
    let stores: [PlistFolderStore]

    init(stores: [PlistFolderStore]) {
        self.stores = stores
    }

    var info: ScannerInfo {
        let problems = stores.compactMap { $0.info.unavailableReason }
        var info = stores.first?.info ?? ScannerInfo(displayName: "Defaults plist folders")
        info.displayName = stores.count == 1 ? info.displayName : "Defaults plist folders"
        info.unavailableReason = problems.count == stores.count ? problems.first : nil
        return info
    }

    func containers() throws -> [ContainerInfo] {
        var seen: Set<String> = []
        var result: [ContainerInfo] = []
        for store in stores where store.info.unavailableReason == nil {
            for container in try store.containers() where seen.insert(container.name).inserted {
                result.append(container)
            }
        }
        return result
    }

    /// Every folder's resolved path, in order.
    var location: String? { stores.compactMap(\.location).joined(separator: "\n") }

    /// The file of the folder that holds the suite (or would create it).
    func location(of suite: String) -> String? {
        (try? owner(of: suite))?.location(of: suite)
    }

    func container(named name: String) throws -> ContainerInfo? {
        try owner(of: name).container(named: name)
    }

    func entries(in suite: String, keys: [String]?) throws -> [ScannedEntry] {
        try owner(of: suite).entries(in: suite, keys: keys)
    }

    func entry(_ key: String, in suite: String) throws -> ScannedEntry? {
        try owner(of: suite).entry(key, in: suite)
    }

    /// With one folder, that folder's answer; with several, finding the suite's folder looks
    /// at the files, so nothing is known from memory.
    func entryInMemory(_ key: String, in suite: String, checkpoint: ChangeCheckpoint) -> ScannedEntry? {
        stores.count == 1 ? stores.first?.entryInMemory(key, in: suite, checkpoint: checkpoint) : nil
    }

    func storedObject(forKey key: String, in suite: String) throws -> Any? {
        try owner(of: suite).storedObject(forKey: key, in: suite)
    }

    func setObject(_ object: Any?, forKey key: String, in suite: String) throws -> WriteResult {
        try owner(of: suite).setObject(object, forKey: key, in: suite)
    }

    func version(of suite: String) -> ContainerVersion? {
        (try? owner(of: suite))?.version(of: suite)
    }

    func storedNames(suite: String, checkpoint: ChangeCheckpoint) -> StoredNames {
        // Before `owner(of:)` looks for the file: a hidden system domain never touches storage.
        if let first = stores.first,
            let system = PlistFolderStore.systemByName(suite, includeSystemDomains: first.includeSystemDomains)
        {
            return system
        }
        return (try? owner(of: suite).storedNames(suite: suite, checkpoint: checkpoint)) ?? StoredNames()
    }

    func watchTargets() -> [WatchTarget] {
        stores.flatMap { $0.watchTargets() }
    }

    func containers(changedAt path: String) -> [String]? {
        stores.lazy.compactMap { $0.containers(changedAt: path) }.first
    }

    /// The first folder that has the suite, else the first folder.
    private func owner(of suite: String) throws(JarvisError) -> PlistFolderStore {
        guard let first = stores.first else {
            throw JarvisError(.unavailable, "no defaults folder is configured")
        }
        return stores.first {
            FileManager.default.fileExists(atPath: $0.served.path(of: "\(suite).plist"))
        } ?? first
    }
}
