import Foundation
import JarvisCore

/// The terminal in the inspector's mode: raw input, the alternate screen, a hidden cursor.
///
/// Whatever ends the inspector puts the terminal back: `restore()` (called from a `defer`),
/// and, for signals and crashes, handlers that use only async-signal-safe calls on state
/// prepared in advance (`TerminalRescue`).
final class RawTerminal {
    let input: Int32
    let output: Int32
    private let saved: termios
    private var restored = false
    /// Readable when the window changed size (written by the SIGWINCH handler).
    let resizeSignal: Int32

    /// Switches the terminal to raw mode and the alternate screen.
    /// - Throws: ``JarvisError`` when standard input or output is not a terminal.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(JarvisError) {
        guard isatty(input) == 1, isatty(output) == 1, let attributes = TerminalShim.attributes(input) else {
            throw JarvisError(
                .unavailable,
                "jarvis inspect needs a terminal on standard input and output; for scripts use `jarvis ls`, `jarvis get` or `jarvis export`"
            )
        }
        guard let pipe = TerminalShim.pipe() else {
            throw JarvisError(
                .unavailable, "cannot create a pipe for resize signals; the process may be out of file descriptors")
        }
        self.input = input
        self.output = output
        saved = attributes
        resizeSignal = pipe.0
        TerminalRescue.arm(attributes: attributes, fd: input, output: output, resizeWriteEnd: pipe.1)
        TerminalShim.apply(TerminalShim.raw(from: attributes), to: input)
        write(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8))
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and puts the saved attributes back. Idempotent.
    func restore() {
        guard !restored else { return }
        restored = true
        write(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
        TerminalShim.apply(saved, to: input)
        TerminalRescue.disarm()
    }

    /// The window size, with a safe minimum when the terminal reports none.
    var size: (rows: Int, columns: Int) {
        let size = TerminalShim.windowSize(output) ?? TerminalShim.windowSize(input) ?? (24, 80)
        return (max(size.rows, 3), max(size.columns, 20))
    }

    /// Empties the resize pipe so the next `poll` sleeps again.
    func drainResize() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while scratch.withUnsafeMutableBytes({ TerminalShim.read(resizeSignal, $0.baseAddress, 64) }) > 0 {}
    }

    /// Writes all of `bytes`, waiting while the terminal is slow.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                TerminalShim.write(output, $0.baseAddress?.advanced(by: offset), bytes.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0, TerminalShim.errno == EINTR || TerminalShim.errno == EAGAIN {
                var descriptor = [pollfd(fd: output, events: Int16(POLLOUT), revents: 0)]
                _ = TerminalShim.poll(&descriptor, timeout: 100)
            } else {
                return
            }
        }
    }

    /// Reads what the keyboard sent; empty when nothing was ready.
    func readInput() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { TerminalShim.read(input, $0.baseAddress, 4096) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }
}
