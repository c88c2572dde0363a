import Foundation
import JarvisSystem
import Testing

/// Issue 47 item 7: a write to a pipe whose reader has gone raises SIGPIPE, which ends a host
/// that keeps the signal's default (as this test process does: nothing here ignores it). The
/// library writes such pipes (the host's standard error, advertisement lines) with
/// `QuietWrite`, which must report the broken pipe and leave the process running.
@Suite struct QuietWriteTests {
    @Test func aPipeWithoutAReaderIsReportedWithoutASignal() throws {
        // Asking for the default hands back what was there: the default too, or this test
        // proves nothing.
        let previous = signal(SIGPIPE, SIG_DFL)
        signal(SIGPIPE, previous)
        #expect(unsafeBitCast(previous, to: Int.self) == 0, "this test process ignores SIGPIPE")
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(!QuietWrite.all(Array("lost\n".utf8), to: ends[1]))
        // Nothing is left pending either: the one the write raised was taken.
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }

    @Test func aPipeWithAReaderGetsEveryByte() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = Array("every byte\n".utf8)
        #expect(QuietWrite.all(bytes, to: ends[1]))
        close(ends[1])
        var read = [UInt8](repeating: 0, count: 64)
        let count = Foundation.read(ends[0], &read, 64)
        #expect(Array(read.prefix(max(count, 0))) == bytes)
    }
}
