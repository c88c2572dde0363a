/// A self-pipe that wakes a thread blocked in `poll`, so sends, closes and `stop()` from other
/// threads take effect at once while an idle thread sleeps with no timeout at all.
///
/// Both ends are non-blocking and close-on-exec. Whoever may call `signal()` must be unable
/// to do so once `close()` has run (callers guard both with the same lock), because a closed
/// descriptor number can be reused by an unrelated file.
package struct WakePipe: Sendable {
    package let readEnd: Int32
    package let writeEnd: Int32

    /// Opens a new pipe.
    package static func make() throws(SocketError) -> WakePipe {
        var fds: (Int32, Int32) = (-1, -1)
        guard Socket.pipe(&fds) == 0 else {
            throw .system("pipe", detail: "the process may be out of file descriptors")
        }
        return WakePipe(readEnd: fds.0, writeEnd: fds.1)
    }

    /// Makes the read end readable; a full pipe already is, so that error is ignored.
    package func signal() {
        var byte: UInt8 = 1
        _ = Socket.write(writeEnd, &byte, 1)
    }

    /// Empties the pipe so the next `poll` sleeps again.
    package func drain() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let size = MemoryLayout.size(ofValue: scratch)
        while withUnsafeMutableBytes(of: &scratch, { Socket.read(readEnd, $0.baseAddress, size) }) > 0 {}
    }

    /// Releases both descriptors.
    package func close() {
        _ = Socket.close(readEnd)
        _ = Socket.close(writeEnd)
    }
}
