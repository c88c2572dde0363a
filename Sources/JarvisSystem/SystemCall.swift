#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#else
    import Musl
#endif

/// POSIX `read` and `write` under names of their own: the types that call them have reading
/// and writing methods of the same names, and the C library's module differs by platform.
/// The one place that choice is made for file I/O.
package enum SystemCall {
    /// `read(2)`: the bytes read, 0 at the end, -1 with `errno` on failure.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(descriptor, buffer, count)
        #elseif canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Musl.read(descriptor, buffer, count)
        #endif
    }

    /// `write(2)`: the bytes written, -1 with `errno` on failure.
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(descriptor, bytes, count)
        #elseif canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Musl.write(descriptor, bytes, count)
        #endif
    }
}
