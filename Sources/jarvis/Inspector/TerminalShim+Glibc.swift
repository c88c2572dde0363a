#if canImport(Glibc)
    import Glibc

    // The Linux half of the terminal shim. `TerminalShim+Darwin.swift` exposes exactly the same
    // functions, so the inspector never needs an `#if` of its own.

    /// The libc calls the inspector makes on the terminal: raw mode, window size, poll, pipes.
    enum TerminalShim {
        /// The terminal's current attributes, or nil when `fd` is not a terminal.
        static func attributes(_ fd: Int32) -> termios? {
            var current = termios()
            return tcgetattr(fd, &current) == 0 ? current : nil
        }

        /// `attributes` switched to raw input: no echo, no line editing, no signals from keys,
        /// each byte delivered at once. Output processing stays on so `\n` still works.
        static func raw(from attributes: termios) -> termios {
            var raw = attributes
            cfmakeraw(&raw)
            raw.c_oflag |= UInt32(OPOST)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 1
                bytes[Int(VTIME)] = 0
            }
            return raw
        }

        /// Applies attributes after pending output is written; async-signal-safe.
        @discardableResult
        static func apply(_ attributes: termios, to fd: Int32) -> Bool {
            var copy = attributes
            return tcsetattr(fd, TCSADRAIN, &copy) == 0
        }

        /// Rows and columns of the terminal on `fd`, or nil when it has no size.
        static func windowSize(_ fd: Int32) -> (rows: Int, columns: Int)? {
            var size = winsize()
            guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
            return (Int(size.ws_row), Int(size.ws_col))
        }

        /// Waits for readiness; `timeout` in milliseconds, -1 for ever.
        static func poll(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
            Glibc.poll(&fds, nfds_t(fds.count), timeout)
        }

        /// A non-blocking, close-on-exec pipe: (read end, write end).
        static func pipe() -> (Int32, Int32)? {
            var fds: [Int32] = [-1, -1]
            guard Glibc.pipe(&fds) == 0 else { return nil }
            for fd in fds {
                _ = Glibc.fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = Glibc.fcntl(fd, F_SETFL, Glibc.fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            }
            return (fds[0], fds[1])
        }

        /// `read(2)`.
        static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            Glibc.read(fd, buffer, count)
        }

        /// `write(2)`; async-signal-safe.
        static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            Glibc.write(fd, buffer, count)
        }

        /// The current `errno`.
        static var errno: Int32 { Glibc.errno }
    }
#endif
