import Foundation
import JarvisCore

/// An app's data container, or an App Group's shared container, on a Simulator device.
///
/// Containers live in folders named by a random UUID that changes when an app is
/// reinstalled; what they belong to is `MCMMetadataIdentifier` in the container's
/// `.com.apple.mobile_container_manager.metadata.plist`.
public struct SimulatorContainer: Sendable, Hashable {
    /// Which kind of container this is.
    public enum Kind: String, Sendable, Hashable {
        /// `Containers/Data/Application/<UUID>`: one app's home folder.
        case application
        /// `Containers/Shared/AppGroup/<UUID>`: shared by the apps of one App Group.
        case appGroup
    }

    /// Which kind of container this is.
    public var kind: Kind
    /// The bundle id (an app) or the group id (an App Group).
    public var identifier: String
    /// The container's folder.
    public var folder: URL

    /// A container, for tests and for callers that know one already.
    public init(kind: Kind, identifier: String, folder: URL) {
        self.kind = kind
        self.identifier = identifier
        self.folder = folder
    }

    /// The folder's name, a UUID that changes when the app is reinstalled.
    public var uuid: String { folder.lastPathComponent }

    /// `Library/Preferences`: one `<suite>.plist` per defaults suite.
    public var preferencesFolder: URL {
        folder.appendingPathComponent("Library/Preferences", isDirectory: true)
    }

    /// `tmp/`: where an embedded agent leaves its discovery file by default.
    public var temporaryFolder: URL {
        folder.appendingPathComponent("tmp", isDirectory: true)
    }

    /// The name of the metadata file that says whose container a folder is.
    public static let metadataFileName = ".com.apple.mobile_container_manager.metadata.plist"

    /// The containers in `parent`, sorted by identifier then UUID; unreadable ones skipped.
    package static func read(kind: Kind, in parent: URL) -> SimulatorScan<SimulatorContainer> {
        var scan = SimulatorScan<SimulatorContainer>()
        for folder in SimulatorFiles.subfolders(of: parent, skipped: &scan.skipped) {
            let file = folder.appendingPathComponent(metadataFileName, isDirectory: false)
            switch SimulatorFiles.dictionary(at: file) {
            case .failure(let skip):
                scan.skipped.append(skip)
            case .success(let metadata):
                guard let identifier = SimulatorFiles.string(metadata["MCMMetadataIdentifier"]), !identifier.isEmpty
                else {
                    scan.skipped.append(SimulatorSkip(path: file.path, reason: "no 'MCMMetadataIdentifier' in it"))
                    continue
                }
                scan.items.append(SimulatorContainer(kind: kind, identifier: identifier, folder: folder))
            }
        }
        scan.items.sort { ($0.identifier, $0.uuid) < ($1.identifier, $1.uuid) }
        return scan
    }
}
