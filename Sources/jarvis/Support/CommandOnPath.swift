import Foundation

/// Whether a shell finds this very program by its name: a folder on `PATH` holds an
/// executable called `name` that is the same file as `executable`, reached directly or
/// through a symbolic link (a link in `/usr/local/bin` to a build folder counts).
enum CommandOnPath {
    /// True when some folder of `path` (a `PATH` value) holds `name` resolving to the file
    /// `executable` resolves to.
    static func finds(_ name: String, executable: URL, path: String) -> Bool {
        let target = executable.resolvingSymlinksInPath().standardizedFileURL.path
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            if candidate.resolvingSymlinksInPath().standardizedFileURL.path == target { return true }
        }
        return false
    }
}
