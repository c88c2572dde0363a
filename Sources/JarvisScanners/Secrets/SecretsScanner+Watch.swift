import Foundation
import JarvisCore

/// Where changes to secrets show while a client watches: secret-file folders tell through the
/// file watcher; keyrings tell nobody, so they are compared every two seconds — only then.
extension SecretsScanner {
    /// The folders of secret files, and a schedule when a keyring is served.
    public func watchTargets() -> [WatchTarget] {
        let folders = backends.compactMap { $0 as? SecretFilesBackend }
        var targets: [WatchTarget] = folders.map { .folder($0.folder.resolvingSymlinksInPath().path) }
        if folders.count < backends.count { targets.append(.schedule(every: .seconds(2))) }
        return targets
    }
}
