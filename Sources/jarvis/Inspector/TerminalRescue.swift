import Foundation
import JarvisCore

/// What the signal handlers need to put the terminal back, prepared before any signal can
/// arrive so the handlers themselves only load values and make async-signal-safe calls
/// (`tcsetattr`, `write`, `kill`, `_exit`, `raise`).
enum TerminalRescue {
    /// What a handler restores and where, written by ``arm(attributes:fd:output:resizeWriteEnd:)``
    /// while ``armed`` is down.
    private struct Saved {
        var attributes = termios()
        var input: Int32 = -1
        var output: Int32 = -1
        var leaveSequence = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    }

    // Written only on the main thread (`arm`, `disarm`, the inspector's child); read by the
    // handlers. See `SignalSafeCell` for the rules.
    private static let saved = SignalSafeCell(Saved())
    private static let armed = SignalSafeCell(false)
    private static let resizeWriteEnd = SignalSafeCell<Int32>(-1)
    private static let child = SignalSafeCell<pid_t>(0)
    private static let installed = SignalSafeCell(false)

    /// A child to stop when the inspector is killed (the demo agent), or 0. Set on the main
    /// thread.
    static var childToStop: pid_t {
        get { child.value }
        set { child.value = newValue }
    }

    /// Records the attributes to restore and installs the handlers (once per process).
    static func arm(attributes: termios, fd: Int32, output: Int32, resizeWriteEnd pipe: Int32) {
        armed.value = false
        var leaveSequence = saved.value.leaveSequence
        if leaveSequence.baseAddress == nil {
            let bytes = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
            leaveSequence = .allocate(capacity: bytes.count)
            _ = leaveSequence.initialize(from: bytes)
        }
        saved.value = Saved(attributes: attributes, input: fd, output: output, leaveSequence: leaveSequence)
        resizeWriteEnd.value = pipe
        armed.value = true
        // Every cell made before a handler can read it: a first touch allocates.
        _ = child.value
        guard !installed.value else { return }
        installed.value = true
        // A mask inherited from whatever started the inspector could hold these back for good,
        // leaving the terminal raw when it is asked to end.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH] { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            signal(signalNumber) { received in
                TerminalRescue.restoreNow()
                let child = TerminalRescue.child.value
                if child > 0 { kill(child, SIGTERM) }
                _exit(128 + received)
            }
        }
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber) { received in
                TerminalRescue.restoreNow()
                let child = TerminalRescue.child.value
                if child > 0 { kill(child, SIGTERM) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
        signal(SIGWINCH) { _ in
            var byte: UInt8 = 1
            let pipe = TerminalRescue.resizeWriteEnd.value
            if pipe >= 0 { _ = TerminalShim.write(pipe, &byte, 1) }
        }
    }

    /// The terminal is back to normal: the handlers have nothing left to restore.
    static func disarm() {
        armed.value = false
    }

    /// Puts the terminal back; called only inside a signal handler, so it only reads (a
    /// second signal restores again, which is harmless).
    private static func restoreNow() {
        guard armed.value else { return }
        let saved = saved.value
        if let base = saved.leaveSequence.baseAddress { _ = TerminalShim.write(saved.output, base, saved.leaveSequence.count) }
        TerminalShim.apply(saved.attributes, to: saved.input)
    }
}
