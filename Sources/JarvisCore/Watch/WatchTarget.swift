/// Where the agent should look for changes to a scanner's storage while a client watches it.
///
/// A scanner returns its targets from ``PreferenceScanner/watchTargets()``. The agent sets
/// them up when the first client watches the scanner and tears them down when the last one
/// stops, so a target costs nothing while nobody watches.
///
/// ```swift
/// func watchTargets() -> [WatchTarget] {
///     [.folder(settingsFolder.path)]  // every file in it is a container
/// }
/// ```
public struct WatchTarget: Sendable, Hashable {
    /// What to watch; read by the agent's change engine.
    package enum Source: Sendable, Hashable {
        case file(path: String, container: String)
        case folder(path: String)
        case schedule(Duration)
        case signal(ChangeSignal)
    }

    /// What to watch.
    package let source: Source

    private init(_ source: Source) {
        self.source = source
    }

    /// One file holding one container. The agent watches the file's folder, so a file
    /// replaced by an atomic rename is still seen.
    public static func file(_ path: String, container: String) -> WatchTarget {
        WatchTarget(.file(path: path, container: container))
    }

    /// A folder whose files are containers. A change to a file is mapped back with
    /// ``PreferenceScanner/containers(changedAt:)``; when that returns nil, every container
    /// of the scanner is read again.
    public static func folder(_ path: String) -> WatchTarget {
        WatchTarget(.folder(path: path))
    }

    /// Storage that tells nobody when it changes (a keyring, another process's memory): the
    /// agent reads every container again at this interval and reports what differs.
    public static func schedule(every interval: Duration) -> WatchTarget {
        WatchTarget(.schedule(interval))
    }

    /// Storage that the scanner itself knows changed (values updated in the host's memory):
    /// the scanner calls ``ChangeSignal/send(container:)``.
    public static func signal(_ signal: ChangeSignal) -> WatchTarget {
        WatchTarget(.signal(signal))
    }
}
