import Foundation
import JarvisCore

/// The per-user folder where running agents leave their discovery files and Unix sockets:
/// `$JARVIS_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/jarvis`, else `jarvis-<uid>` in the
/// temporary directory (on iOS, the app's own `tmp/`).
///
/// It must be a real folder (not a link), owned by this user, mode 0700: in a shared
/// temporary directory another user could otherwise make it first and plant records or
/// sockets there. The agent refuses to start in, and the CLI refuses to read, any other.
package struct RuntimeDirectory: Sendable, Hashable {
    package let url: URL

    package init(url: URL) {
        self.url = url
    }

    /// The folder for this user and environment.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> RuntimeDirectory
    {
        if let explicit = environment["JARVIS_RUNTIME_DIR"], !explicit.isEmpty {
            return RuntimeDirectory(url: URL(fileURLWithPath: explicit, isDirectory: true))
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return RuntimeDirectory(
                url: URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("jarvis"))
        }
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        return RuntimeDirectory(url: temporary.appendingPathComponent(defaultName))
    }

    /// The folder's name inside a temporary directory, also looked for inside the app
    /// containers of the iOS Simulator (whose apps run as the Mac's user).
    package static var defaultName: String { "jarvis-\(PrivatePath.userID)" }

    /// Creates the folder if needed (0700), then checks it is this user's private folder.
    /// - Throws: ``JarvisError`` `.storage` naming the folder and how to fix it.
    package func prepare() throws(JarvisError) {
        let path = url.path
        if !PrivatePath.exists(path) {
            let parent = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw JarvisError(
                    .storage,
                    "cannot create the runtime folder \(path): \(error.localizedDescription); set JARVIS_RUNTIME_DIR to a writable folder"
                )
            }
            PrivatePath.makeFolder(path)
        }
        try check()
    }

    /// Whether the folder exists, after checking it is this user's private folder.
    /// - Throws: ``JarvisError`` `.unavailable` when it exists but is a link, another user's
    ///   or open to others, with how to fix it.
    package func existsAndIsPrivate() throws(JarvisError) -> Bool {
        if PrivatePath.folderProblem(url.path) == .missing { return false }
        try check()
        return true
    }

    private func check() throws(JarvisError) {
        guard let problem = PrivatePath.folderProblem(url.path) else { return }
        throw JarvisError(.unavailable, problem.message(for: url.path))
    }

    /// The discovery file of an agent.
    package func recordURL(for id: String) -> URL { url.appendingPathComponent("\(id).json") }

    /// The Unix socket of an agent.
    package func socketPath(for id: String) -> String { url.appendingPathComponent("\(id).sock").path }

    /// Whether `path` names an entry directly inside this folder (no `..`, no subfolder).
    package func holds(_ path: String) -> Bool {
        let entry = URL(fileURLWithPath: path)
        return entry.deletingLastPathComponent().path == url.path && !path.contains("/../")
            && !["..", "."].contains(entry.lastPathComponent)
    }
}
