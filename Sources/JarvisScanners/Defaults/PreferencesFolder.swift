import Foundation

/// Where this process's `UserDefaults` keep their files, and what the standard suite is
/// called: the only place the defaults scanner differs between Apple platforms and Linux.
enum PreferencesFolder {
    /// The folder holding one `<suite>.plist` per suite, or nil when it cannot be found.
    ///
    /// On Apple platforms this is the app's `Library/Preferences` (inside the container when
    /// sandboxed). On Linux it is `$XDG_CONFIG_HOME`, else `~/.config`, as swift-corelibs-foundation
    /// computes it: from the environment the process started with, because CoreFoundation copies
    /// `HOME` and `XDG_*` when it loads, so a later `setenv` does not move where UserDefaults write.
    static func current() -> URL? {
        #if canImport(Darwin)
            return FileManager.default.urls(for: .libraryDirectory, in: .userDomainMask).first?
                .appendingPathComponent("Preferences", isDirectory: true)
        #else
            let environment = launchEnvironment()
            if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
                return URL(fileURLWithPath: config, isDirectory: true)
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        #endif
    }

    /// Writes every suite the process changed but has not saved yet, so that a suite the
    /// program created since is a file in ``current()`` and can be listed.
    ///
    /// swift-corelibs-foundation keeps `UserDefaults` writes in memory until something calls
    /// `synchronize()` (one call saves every changed suite of the process, from any thread) and
    /// posts no `UserDefaults.didChangeNotification` for them; there is no call that names the
    /// suites it holds. On Apple platforms the preferences daemon (cfprefsd) owns the files and
    /// `synchronize()` is unneeded: nothing is done there.
    static func savePendingWrites() {
        #if !canImport(Darwin)
            _ = UserDefaults.standard.synchronize()
        #endif
    }

    /// Whether `UserDefaults` here saves suites as XML property lists: swift-corelibs-foundation
    /// does (and writes control characters raw, which other XML parsers refuse); Apple's
    /// preferences daemon writes binary ones.
    static var savesXML: Bool {
        #if canImport(Darwin)
            return false
        #else
            return true
        #endif
    }

    /// The name of the suite `UserDefaults.standard` stores: the bundle identifier on Apple
    /// platforms, the executable's name on Linux (where there is usually no bundle).
    static var standardSuiteName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    #if !canImport(Darwin)
        /// The environment as the process started, which is what CoreFoundation saw; falls back to
        /// the current environment where `/proc` is not mounted.
        private static func launchEnvironment() -> [String: String] {
            guard let data = FileManager.default.contents(atPath: "/proc/self/environ"), !data.isEmpty else {
                return ProcessInfo.processInfo.environment
            }
            var environment: [String: String] = [:]
            for entry in data.split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { continue }
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            return environment
        }
    #endif
}
