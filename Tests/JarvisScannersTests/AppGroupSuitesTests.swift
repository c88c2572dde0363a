import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

/// App Group suites are named suites with the group id as their name; only Apple platforms
/// have the group container whose folder is watched as well.
@Suite(.serialized) final class AppGroupSuitesTests {
    private let group = "group.jarvis-test-" + UUID().uuidString

    deinit {
        UserDefaults(suiteName: group)?.removePersistentDomain(forName: group)
        if let folder = PreferencesFolder.current() {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(group + ".plist"))
        }
    }

    @Test func anAppGroupIsListedByItsIdBeforeAnythingIsStored() throws {
        let scanner = DefaultsScanner.defaults(appGroups: [group])
        #expect(try scanner.containers().map(\.name).contains(group))
        #expect(try !DefaultsScanner.defaults().containers().map(\.name).contains(group))
    }

    @Test func itsValuesAreEditedThroughUserDefaults() throws {
        let scanner = DefaultsScanner.defaults(appGroups: [group])
        try scanner.write(WriteRequest(container: group, key: "shared_flag", change: .set(.boolean(true))))
        #expect(UserDefaults(suiteName: group)?.bool(forKey: "shared_flag") == true)
        #expect(try scanner.read(ReadRequest(container: group))[key: "shared_flag"]?.value == .boolean(true))
    }

    #if !canImport(Darwin)
        @Test func withoutAppGroupsNoGroupFolderIsWatched() {
            #expect(AppGroupFolder.preferences(of: group) == nil)
            let targets = DefaultsScanner.defaults(appGroups: [group]).watchTargets()
            #expect(targets == DefaultsScanner.defaults().watchTargets())
        }
    #endif
}
