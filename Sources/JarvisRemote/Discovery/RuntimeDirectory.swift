import Foundation
import JarvisCore

/// The per-user folder where running agents leave their discovery files and Unix sockets:
/// `$JARVIS_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/jarvis`, else `jarvis-<uid>` in the
/// temporary directory. Created owner-only (0700).
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
        return RuntimeDirectory(url: temporary.appendingPathComponent("jarvis-\(ProcessProbe.userID)"))
    }

    /// Creates the folder if needed, owner-only.
    /// - Throws: ``JarvisError`` `.storage` when it cannot be created.
    package func prepare() throws(JarvisError) {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        } catch {
            throw JarvisError(
                .storage,
                "cannot create the runtime folder \(url.path): \(error.localizedDescription); set JARVIS_RUNTIME_DIR to a writable folder"
            )
        }
    }

    /// The discovery file of an agent.
    package func recordURL(for id: String) -> URL { url.appendingPathComponent("\(id).json") }

    /// The Unix socket of an agent.
    package func socketPath(for id: String) -> String { url.appendingPathComponent("\(id).sock").path }
}
