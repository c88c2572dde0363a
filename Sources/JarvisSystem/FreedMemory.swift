#if canImport(Glibc)
    import CJarvisEpoll
#endif

/// Hands memory the process freed back to the system, once a cache let go of enough of it.
///
/// glibc keeps what a thread freed in that thread's arena for its next allocations, so after
/// the work threads parsed large files in turn, each arena holds its own peak: the process
/// stays as large as the sum of them long after the values are gone. `malloc_trim` returns the
/// free pages of every arena. Other systems' allocators return free pages themselves, and
/// there this does nothing. Safe from any thread.
package enum FreedMemory {
    /// Returns the free memory of every arena to the system (glibc); nothing elsewhere.
    package static func giveBack() {
        #if canImport(Glibc)
            _ = jarvis_give_back_freed()
        #endif
    }
}
