import Foundation
import JarvisCore
import JarvisRemote

/// The private file `jarvis web` hands the browser instead of its address: a page that sends
/// the browser on to the address with the one-time secret.
///
/// A program's command line is public on the machine (`ps` shows every user's), so the
/// address with the secret must never be an argument of `open`/`xdg-open` or of the browser
/// they start. The file lives in a fresh folder made by `mkdtemp` (mode 0700) and is written
/// with mode 0600, so only this user can read the secret in it; it is removed once the
/// secret is used or the server stops.
struct WebLaunchFile: Sendable {
    /// The file's path.
    let path: String
    /// Its private folder.
    let folder: String

    /// The `file://` address to give the browser.
    var url: String { URL(fileURLWithPath: path).absoluteString }

    /// Writes the page for `address` into a new private folder under `$TMPDIR` (else `/tmp`).
    /// - Throws: ``JarvisError`` `.storage` when no private folder or file can be made.
    static func write(
        address: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(JarvisError) -> WebLaunchFile {
        var parent = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        guard let folder = PrivatePath.makeUniqueFolder(in: parent, prefix: "jarvis-web-") else {
            throw JarvisError(.storage, "cannot make a private folder in \(parent) for the browser; set TMPDIR to a folder of yours, or use --no-open")
        }
        let file = WebLaunchFile(path: folder + "/open.html", folder: folder)
        let page = RefreshPage.html(to: address)
        do {
            try PrivatePath.replaceFile(file.path, with: Array(page.utf8), mode: 0o600)
        } catch {
            PrivatePath.removeEmptyFolder(folder)
            throw error
        }
        return file
    }

    /// Removes the file and its folder.
    func remove() {
        PrivatePath.removeEntry(path)
        PrivatePath.removeEmptyFolder(folder)
    }
}
