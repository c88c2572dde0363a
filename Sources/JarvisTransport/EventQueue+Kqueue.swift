#if canImport(Darwin)
    import Darwin

    /// A new readiness queue of the platform: kqueue here.
    package func makeEventQueue() throws(SocketError) -> any EventQueue {
        try KQueueEventQueue()
    }

    /// The Apple readiness queue: one kqueue, with a read and a write filter per descriptor,
    /// each enabled or disabled as the interest changes (level-triggered, as epoll).
    final class KQueueEventQueue: EventQueue {
        private let descriptor: Int32
        // `kevent` names both the struct and the function: the type annotation picks the struct.
        private var buffer: [kevent] = Array(repeating: kevent(), count: 128)

        init() throws(SocketError) {
            descriptor = kqueue()
            guard descriptor >= 0 else {
                throw .system("kqueue", detail: "the process may be out of file descriptors")
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }

        func add(_ fd: Int32, interest: EventInterest) throws(SocketError) {
            try apply(fd, interest, adding: true, "kevent(add)")
        }

        func modify(_ fd: Int32, interest: EventInterest) throws(SocketError) {
            try apply(fd, interest, adding: false, "kevent(modify)")
        }

        func remove(_ fd: Int32) {
            var changes = [
                Self.change(fd, Int16(EVFILT_READ), UInt16(EV_DELETE)),
                Self.change(fd, Int16(EVFILT_WRITE), UInt16(EV_DELETE)),
            ]
            _ = changes.withUnsafeMutableBufferPointer { raw in
                kevent(descriptor, raw.baseAddress, Int32(raw.count), nil, 0, nil)
            }
        }

        func wait(timeout: Int32, into ready: inout [ReadyEvent]) throws(SocketError) {
            ready.removeAll(keepingCapacity: true)
            var limit = timespec(tv_sec: Int(timeout / 1000), tv_nsec: Int(timeout % 1000) * 1_000_000)
            let count = buffer.withUnsafeMutableBufferPointer { raw in
                timeout < 0
                    ? kevent(descriptor, nil, 0, raw.baseAddress, Int32(raw.count), nil)
                    : kevent(descriptor, nil, 0, raw.baseAddress, Int32(raw.count), &limit)
            }
            if count < 0 {
                if Darwin.errno == EINTR { return }
                throw .system("kevent")
            }
            // A descriptor ready both ways comes as two events; merge them into one.
            var positions: [Int32: Int] = [:]
            for index in 0..<Int(count) {
                let event = buffer[index]
                let fd = Int32(event.ident)
                let position = positions[fd] ?? ready.count
                if position == ready.count {
                    positions[fd] = position
                    ready.append(ReadyEvent(descriptor: fd, readable: false, writable: false, hangup: false))
                }
                if event.filter == Int16(EVFILT_READ) { ready[position].readable = true }
                if event.filter == Int16(EVFILT_WRITE) { ready[position].writable = true }
                if event.flags & UInt16(EV_EOF | EV_ERROR) != 0 { ready[position].hangup = true }
            }
        }

        func close() {
            _ = Darwin.close(descriptor)
        }

        private func apply(_ fd: Int32, _ interest: EventInterest, adding: Bool, _ name: String) throws(SocketError) {
            let base = adding ? UInt16(EV_ADD) : 0
            func flags(_ wanted: Bool) -> UInt16 { base | UInt16(wanted ? EV_ENABLE : EV_DISABLE) }
            var changes = [
                Self.change(fd, Int16(EVFILT_READ), flags(interest.contains(.read))),
                Self.change(fd, Int16(EVFILT_WRITE), flags(interest.contains(.write))),
            ]
            let result = changes.withUnsafeMutableBufferPointer { raw in
                kevent(descriptor, raw.baseAddress, Int32(raw.count), nil, 0, nil)
            }
            guard result >= 0 else { throw .system(name) }
        }

        private static func change(_ fd: Int32, _ filter: Int16, _ flags: UInt16) -> kevent {
            kevent(ident: UInt(fd), filter: filter, flags: flags, fflags: 0, data: 0, udata: nil)
        }
    }
#endif
