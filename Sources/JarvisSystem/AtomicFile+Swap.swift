import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Exchanging two files' names in one step (Linux `renameat2` with `RENAME_EXCHANGE`, Darwin
/// `renameatx_np` with `RENAME_SWAP`): the file that was in place is kept under the other
/// name, so a writer can see whether anyone replaced the file in the instant before its own
/// replace landed. The functions are looked up at run time, as not every C library declares
/// them; where they are missing, or the file system refuses, the caller falls back to `rename`.
extension AtomicFile {
    /// What an exchange did.
    package enum SwapResult {
        /// The two names now point at each other's files.
        case swapped
        /// This system or file system cannot exchange; nothing changed.
        case unsupported
        /// The exchange failed with this `errno`; nothing changed.
        case failed(Int32)
    }

    /// Exchanges the files at two paths on the same file system.
    package static func swap(_ first: String, _ second: String) -> SwapResult {
        swap(AT_FDCWD, first, second)
    }

    /// Exchanges two names inside the folder open at `folder` (neither name's link followed).
    package static func swap(_ folder: Int32, _ first: String, _ second: String) -> SwapResult {
        guard let function = swapFunction else { return .unsupported }
        let result = first.withCString { first in second.withCString { second in function(folder, first, second) } }
        guard result != 0 else { return .swapped }
        let code = errno
        return [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(code) ? .unsupported : .failed(code)
    }

    #if canImport(Darwin)
        private typealias RenameFunction =
            @convention(c) (
                Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
            ) -> Int32
        private static let swapFunction: (@Sendable (Int32, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "renameatx_np") else { return nil }
            let function = unsafeBitCast(symbol, to: RenameFunction.self)
            // RENAME_SWAP
            return { folder, first, second in function(folder, first, folder, second, 0x2) }
        }()
    #else
        private typealias RenameFunction =
            @convention(c) (
                Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
            ) -> Int32
        private static let swapFunction: (@Sendable (Int32, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32)? = {
            // RTLD_DEFAULT is a null handle in glibc and musl.
            guard let symbol = dlsym(nil, "renameat2") else { return nil }
            let function = unsafeBitCast(symbol, to: RenameFunction.self)
            // RENAME_EXCHANGE
            return { folder, first, second in function(folder, first, folder, second, 0x2) }
        }()
    #endif
}
