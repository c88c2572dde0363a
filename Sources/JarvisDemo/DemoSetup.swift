import Foundation
import JarvisCore
import JarvisScanners
import JarvisRemote

/// Everything the demo agent serves: sample data written into a fresh temporary folder, the
/// scanners over it, and a configuration that hides the private suite. Shared by
/// `jarvis-agent --demo` and `jarvis demo`, so both show the same thing.
package struct DemoSetup: Sendable {
    /// The temporary folder holding the sample data; remove it with ``cleanUp()``.
    package let folder: URL
    /// The sample defaults suites, one `<suite>.plist` each.
    package var defaultsFolder: URL { folder.appendingPathComponent("defaults") }
    /// The sample JSON config files.
    package var filesFolder: URL { folder.appendingPathComponent("files") }
    /// The sample secret files, one file per secret.
    package var secretsFolder: URL { folder.appendingPathComponent(DemoData.secretsFolder) }

    /// The scanners over the sample data alone.
    package var scanners: [any PreferenceScanner] {
        [
            DefaultsScanner.defaults(folders: [defaultsFolder]), JSONFilesScanner.jsonFiles(in: [filesFolder]),
            SecretsScanner(folders: [secretsFolder], systemKeyring: false),
        ]
    }

    /// Writes the sample data and builds the scanners.
    /// - Throws: ``JarvisError`` `.storage` when the temporary folder cannot be written.
    package static func prepare() throws(JarvisError) -> DemoSetup {
        // A fresh 0700 folder (mkdtemp): the sample suites and secrets are private from the start.
        let parent = FileManager.default.temporaryDirectory.path
        guard let made = PrivatePath.makeUniqueFolder(in: parent, prefix: "jarvis-demo-") else {
            throw JarvisError(.storage, "cannot make a private folder for the demo data in \(parent); check TMPDIR")
        }
        let folder = URL(fileURLWithPath: made, isDirectory: true)
        let setup = DemoSetup(folder: folder)
        do {
            try DemoData.write(into: setup.defaultsFolder)
            try DemoFiles.write(into: setup.filesFolder)
            try DemoData.writeSecrets(into: setup.secretsFolder)
        } catch {
            setup.cleanUp()
            throw JarvisError(.storage, "cannot write the demo data into \(folder.path): \(error.localizedDescription)")
        }
        return setup
    }

    /// The demo's rules added to a configuration: the private suite is hidden, and the demo
    /// host's key catalog declares a few keys.
    package func configure(_ configuration: inout JarvisConfiguration) {
        configuration.hide(containers: GlobPattern(DemoData.privateSuite), in: "defaults")
        configuration.catalog = DemoFiles.catalog
    }

    /// Removes the sample data.
    package func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }
}
