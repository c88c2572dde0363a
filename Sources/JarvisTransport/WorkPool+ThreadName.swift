#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import CJarvisEpoll
    import Glibc
#endif

extension WorkPool {
    /// Names the calling thread for debuggers and `/proc/<pid>/task/*/comm` (at most 15 bytes
    /// on Linux). Foundation's `Thread.name` does not reach the system's name on Linux, where a
    /// thread otherwise shows the name of the thread that started it.
    static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
            _ = pthread_setname_np(name)
        #elseif canImport(Glibc)
            _ = name.withCString { jarvis_name_thread($0) }
        #endif
    }
}
