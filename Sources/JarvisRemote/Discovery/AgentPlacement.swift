import Foundation
import JarvisTransport

/// Where an agent serves, chosen at start so that any runtime folder works: a Unix socket
/// path must be shorter than the system's limit (108 bytes on Linux, 104 on Apple systems),
/// and an app's temporary folder in the iOS Simulator is about 150 bytes deep.
package enum AgentPlacement: Sendable, Hashable {
    /// A socket in the runtime folder, the usual case.
    case socket(path: String)
    /// A socket in a fresh private folder under `/tmp` (made by `mkdtemp`, checked like the
    /// runtime folder), because the runtime folder's path is too long; the agent removes the
    /// folder when it stops.
    case shortSocket(path: String, folder: String)
    /// Loopback TCP with a token, when no short folder can be made either (an iOS device's
    /// sandbox allows none).
    case loopback

    /// The parent of short socket folders.
    package static let shortParent = "/tmp"

    /// The name prefix of this user's short socket folders.
    package static var shortPrefix: String { "jarvis-\(PrivatePath.userID)." }

    /// Chooses where the agent with this id serves.
    package static func choose(
        id: String, in directory: RuntimeDirectory, shortParent parent: String = shortParent
    ) -> AgentPlacement {
        let path = directory.socketPath(for: id)
        if Socket.fitsUnixPath(path) { return .socket(path: path) }
        if let folder = PrivatePath.makeUniqueFolder(in: parent, prefix: shortPrefix) {
            let short = folder + "/\(id).sock"
            if Socket.fitsUnixPath(short) { return .shortSocket(path: short, folder: folder) }
            PrivatePath.removeEmptyFolder(folder)
        }
        return .loopback
    }

    /// The Unix socket path, if the agent serves on one.
    package var socketPath: String? {
        switch self {
        case .socket(let path), .shortSocket(let path, _): path
        case .loopback: nil
        }
    }

    /// The short folder that holds `socket`, when `socket` lies directly inside one of this
    /// user's short socket folders and that folder is still private; nil otherwise.
    package static func shortFolder(holding socket: String) -> String? {
        let folder = (socket as NSString).deletingLastPathComponent
        let name = (folder as NSString).lastPathComponent
        guard (folder as NSString).deletingLastPathComponent == shortParent, name.hasPrefix(shortPrefix),
            !socket.contains("/../"), PrivatePath.folderProblem(folder) == nil
        else { return nil }
        return folder
    }
}
