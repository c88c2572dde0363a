import Foundation
import JarvisSystem

extension FileHandle {
    /// Writes `bytes` to a child's standard input (or any pipe) without raising SIGPIPE in the
    /// test process when the reader has gone: the test process keeps SIGPIPE's default (so a
    /// library that raises it shows), and a child that quit early must fail its own test, never
    /// end the whole run. False when not every byte was taken.
    @discardableResult
    package func writeQuietly(_ bytes: some Sequence<UInt8>) -> Bool {
        QuietWrite.all(Array(bytes), to: fileDescriptor)
    }
}
