#if canImport(Darwin)
    import Darwin
#endif

/// Whether a volume compares file names without regard to case (the default on macOS).
enum VolumeCase {
    /// Asks the volume holding `path`. Only Darwin can tell (`_PC_CASE_SENSITIVE`); other
    /// systems' usual file systems are case-sensitive, and are taken to be.
    static func ignoresCase(at path: String) -> Bool {
        #if canImport(Darwin)
            // 0 means case-insensitive; 1 sensitive; -1 that the volume cannot say.
            return pathconf(path, _PC_CASE_SENSITIVE) == 0
        #else
            return false
        #endif
    }
}
