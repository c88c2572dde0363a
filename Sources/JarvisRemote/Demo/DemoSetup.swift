import Foundation
import JarvisCore
import JarvisScanners

/// Everything the demo agent serves: sample data written into a fresh temporary folder, the
/// scanners over it, and a configuration that hides the private suite. Shared by
/// `jarvis-agent --demo` and `jarvis demo`, so both show the same thing.
package struct DemoSetup: Sendable {
    /// The temporary folder holding the sample data; remove it with ``cleanUp()``.
    package let folder: URL
    /// The scanners over the sample data.
    package let scanners: [any PreferenceScanner]

    /// Writes the sample data and builds the scanners.
    /// - Throws: ``JarvisError`` `.storage` when the temporary folder cannot be written.
    package static func prepare() throws(JarvisError) -> DemoSetup {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("jarvis-demo-\(UUID().uuidString.prefix(8))")
        let defaults = folder.appendingPathComponent("defaults")
        do {
            try DemoData.write(into: defaults)
        } catch {
            throw JarvisError(.storage, "cannot write the demo data into \(folder.path): \(error.localizedDescription)")
        }
        return DemoSetup(folder: folder, scanners: [DefaultsScanner.defaults(folder: defaults)])
    }

    /// The demo's rules added to a configuration: the private suite is hidden.
    package func configure(_ configuration: inout JarvisConfiguration) {
        configuration.hide(containers: GlobPattern(DemoData.privateSuite), in: "defaults")
    }

    /// Removes the sample data.
    package func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }
}
