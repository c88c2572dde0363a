import Foundation

/// Where an App Group's defaults suite lives: `<group container>/Library/Preferences`, found
/// with `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` on Apple platforms.
///
/// The suite itself is read and written through `UserDefaults(suiteName: groupID)` like any
/// named suite; the folder is only watched, so that writes by the app's extensions and widgets
/// (other processes) show while a client watches.
enum AppGroupFolder {
    /// The group's preferences folder; nil when the app lacks the group's entitlement (iOS),
    /// and always nil off Apple platforms, where App Groups do not exist.
    static func preferences(of groupID: String) -> URL? {
        #if canImport(Darwin)
            return FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupID)?
                .appendingPathComponent("Library/Preferences", isDirectory: true)
        #else
            return nil
        #endif
    }
}
