import Foundation

/// What the signal handlers need to put the terminal back, prepared before any signal can
/// arrive so the handlers themselves only load values and make async-signal-safe calls
/// (`tcsetattr`, `write`, `kill`, `_exit`, `raise`).
enum TerminalRescue {
    // Written only by `arm`/`disarm` on the main thread, before handlers are installed and
    // after they stop mattering; read by signal handlers. Plain loads of plain values.
    nonisolated(unsafe) private static var attributes = termios()
    nonisolated(unsafe) private static var input: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = -1
    nonisolated(unsafe) private static var armed = false
    nonisolated(unsafe) private static var resizeWriteEnd: Int32 = -1
    nonisolated(unsafe) private static var leaveSequence: UnsafeMutableBufferPointer<UInt8> = .init(
        start: nil, count: 0)
    /// A child to stop when the inspector is killed (the demo agent), or 0.
    nonisolated(unsafe) static var childToStop: pid_t = 0
    nonisolated(unsafe) private static var installed = false

    /// Records the attributes to restore and installs the handlers (once per process).
    static func arm(attributes saved: termios, fd: Int32, output out: Int32, resizeWriteEnd pipe: Int32) {
        if leaveSequence.baseAddress == nil {
            let bytes = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            leaveSequence = buffer
        }
        attributes = saved
        input = fd
        output = out
        resizeWriteEnd = pipe
        armed = true
        guard !installed else { return }
        installed = true
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            signal(signalNumber) { received in
                TerminalRescue.restoreNow()
                if TerminalRescue.childToStop > 0 { kill(TerminalRescue.childToStop, SIGTERM) }
                _exit(128 + received)
            }
        }
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber) { received in
                TerminalRescue.restoreNow()
                if TerminalRescue.childToStop > 0 { kill(TerminalRescue.childToStop, SIGTERM) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        signal(SIGWINCH) { _ in
            var byte: UInt8 = 1
            if TerminalRescue.resizeWriteEnd >= 0 { _ = TerminalShim.write(TerminalRescue.resizeWriteEnd, &byte, 1) }
        }
    }

    /// The terminal is back to normal: the handlers have nothing left to restore.
    static func disarm() {
        armed = false
    }

    /// Puts the terminal back; safe inside a signal handler.
    static func restoreNow() {
        guard armed else { return }
        armed = false
        if let base = leaveSequence.baseAddress { _ = TerminalShim.write(output, base, leaveSequence.count) }
        TerminalShim.apply(attributes, to: input)
    }
}
