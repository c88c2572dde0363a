import Foundation
import JarvisCore

/// How the agent hears of changes to the host's own defaults, one platform per branch.
///
/// Other processes write the suite files, which the preferences folder target catches. The
/// host's own writes differ: Apple platforms post `UserDefaults.didChangeNotification`, while
/// swift-corelibs-foundation posts nothing and does not write the file at once, so on Linux
/// the suites are compared every 50 ms — only while a client watches.
extension UserDefaultsStore {
    func watchTargets() -> [WatchTarget] {
        var targets: [WatchTarget] = []
        if let folder = PreferencesFolder.current() { targets.append(.folder(folder.path)) }
        for group in appGroups {
            if let folder = AppGroupFolder.preferences(of: group) { targets.append(.folder(folder.path)) }
        }
        #if canImport(Darwin)
            targets.append(.signal(Self.hostWrites))
            DefaultsKeyObserver.shared.observe(suites: (try? containers().map(\.name)) ?? namedSuites)
            targets.append(.signal(DefaultsKeyObserver.shared.signal))
        #else
            targets.append(.schedule(every: .milliseconds(50)))
        #endif
        return targets
    }

    func containers(changedAt path: String) -> [String]? {
        for group in appGroups {
            // An App Group's folder holds its suite under the group id.
            if let folder = AppGroupFolder.preferences(of: group), DefaultsSuite.suite(at: path, in: folder) != nil {
                return [group]
            }
        }
        guard let folder = PreferencesFolder.current() else { return nil }
        return DefaultsSuite.suite(at: path, in: folder)
    }

    #if canImport(Darwin)
        /// One signal for the process, fed by one observer installed on first use.
        private static let hostWrites: ChangeSignal = {
            let signal = ChangeSignal()
            // The notification does not say which suite changed: every suite is compared.
            _ = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: nil, queue: nil
            ) { _ in signal.send(container: nil) }
            return signal
        }()
    #endif
}
