#if canImport(Glibc)
    import CJarvisEpoll
    import Glibc

    /// A new readiness queue of the platform: epoll here.
    package func makeEventQueue() throws(SocketError) -> any EventQueue {
        try EPollEventQueue()
    }

    /// The Linux readiness queue: one epoll descriptor, level-triggered.
    final class EPollEventQueue: EventQueue {
        private let descriptor: Int32
        private var buffer = [epoll_event](repeating: epoll_event(), count: 128)

        init() throws(SocketError) {
            descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard descriptor >= 0 else {
                throw .system("epoll_create1", detail: "the process may be out of file descriptors")
            }
        }

        func add(_ fd: Int32, interest: EventInterest) throws(SocketError) {
            try control(EPOLL_CTL_ADD, fd, interest, "epoll_ctl(add)")
        }

        func modify(_ fd: Int32, interest: EventInterest) throws(SocketError) {
            try control(EPOLL_CTL_MOD, fd, interest, "epoll_ctl(modify)")
        }

        func remove(_ fd: Int32) {
            var event = epoll_event()
            _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, fd, &event)
        }

        func wait(timeout: Int32, into ready: inout [ReadyEvent]) throws(SocketError) {
            ready.removeAll(keepingCapacity: true)
            let count = buffer.withUnsafeMutableBufferPointer { raw in
                epoll_wait(descriptor, raw.baseAddress, Int32(raw.count), timeout)
            }
            if count < 0 {
                if Glibc.errno == EINTR { return }
                throw .system("epoll_wait")
            }
            for index in 0..<Int(count) {
                let flags = buffer[index].events
                ready.append(
                    ReadyEvent(
                        descriptor: buffer[index].data.fd,
                        readable: flags & EPOLLIN.rawValue != 0,
                        writable: flags & EPOLLOUT.rawValue != 0,
                        hangup: flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0))
            }
        }

        func close() {
            _ = Glibc.close(descriptor)
        }

        private func control(_ operation: Int32, _ fd: Int32, _ interest: EventInterest, _ name: String)
            throws(SocketError)
        {
            var flags: UInt32 = 0
            if interest.contains(.read) { flags |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
            if interest.contains(.write) { flags |= EPOLLOUT.rawValue }
            var event = epoll_event()
            event.events = flags
            event.data.fd = fd
            guard epoll_ctl(descriptor, operation, fd, &event) == 0 else { throw .system(name) }
        }
    }
#endif
