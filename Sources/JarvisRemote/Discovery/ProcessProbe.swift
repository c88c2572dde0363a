#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few process calls discovery needs; the C library spells them alike on every platform,
/// so only the import differs.
package enum ProcessProbe {
    /// Whether a process with this pid exists (it may belong to another user).
    package static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid, 0) == 0 { return true }
        return errno == EPERM
    }
}
