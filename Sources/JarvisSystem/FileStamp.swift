import Foundation
import JarvisCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What identifies one version of a file for caches: modification time, size, inode, device
/// and permission bits, from a single `stat` (cheaper than `FileManager.attributesOfItem`,
/// which also opens the file and lists its extended attributes on Linux). The permissions are
/// part of it so that a file made unreadable (`chmod`) is read again, and its problem seen,
/// rather than served from a cache.
package struct FileStamp: Hashable, Sendable {
    package var seconds: Int
    package var nanoseconds: Int
    package var size: Int64
    package var inode: UInt64
    package var device: UInt64
    package var permissions: UInt32

    /// The stamp of the file at `path` (following links), or nil when it does not exist.
    package static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(status: info)
    }

    /// The stamp of the file at `path` (following links) and whether `path` itself is a
    /// symbolic link; nil when nothing is there or a link dangles. One `lstat` answers for a
    /// name that is not a link (the common case); only a link costs a `stat` more.
    package static func ofEntry(_ path: String) -> (stamp: FileStamp, isLink: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFLNK else { return (FileStamp(status: info), false) }
        guard stat(path, &info) == 0 else { return nil }
        return (FileStamp(status: info), true)
    }

    /// The stamp of an open file, or nil when `fstat` fails.
    package static func of(descriptor: Int32) -> FileStamp? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStamp(status: info)
    }
}

extension FileStamp {
    /// The stamp of what `stat`, `fstat` or `fstatat` described.
    package init(status info: stat) {
        #if canImport(Darwin)
            let time = info.st_mtimespec
            // `dev_t` is a signed 32-bit value here; keep its bits rather than trap on a negative one.
            let device = UInt64(UInt32(bitPattern: info.st_dev))
        #else
            let time = info.st_mtim
            let device = UInt64(info.st_dev)
        #endif
        self.init(
            seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), size: Int64(info.st_size),
            inode: UInt64(info.st_ino), device: device, permissions: UInt32(info.st_mode) & 0o7777)
    }
}

extension FileStamp {
    /// The stamp as a container's version (``ContainerVersion``): a file-backed container
    /// whose file has this stamp holds what it held when a version with these parts was taken.
    package var version: ContainerVersion {
        ContainerVersion([
            device, inode, UInt64(bitPattern: size), UInt64(bitPattern: Int64(seconds)),
            UInt64(bitPattern: Int64(nanoseconds)), UInt64(permissions),
        ])
    }
}
