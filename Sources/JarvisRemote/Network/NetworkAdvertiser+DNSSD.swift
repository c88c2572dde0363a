#if canImport(dnssd)
    import Dispatch
    import JarvisCore
    import dnssd

    /// Registers the agent's own TCP port as a `_jarvis._tcp` Bonjour service with the system's
    /// mDNS responder (`DNSServiceRegister`).
    ///
    /// The agent listens on its own POSIX socket, so it needs an API that advertises a port
    /// without owning the listener: `NWListener` only advertises the port it listens on itself,
    /// and `NetService` is deprecated and needs a run loop. The registration lives until
    /// ``stop()``, with the daemon's replies read on a private queue (unread replies would pile
    /// up until the daemon drops the connection, and the service with it).
    final class DNSSDRegistration: Sendable {
        // Guards `reference`: set in init, released once by `stop()` or `deinit`.
        private let lock = Locked<ServiceReference?>(nil)

        /// The registration's handle. `@unchecked Sendable`: it is only carried through the
        /// lock, and used (deallocated) on `queue` alone.
        private struct ServiceReference: @unchecked Sendable {
            let raw: DNSServiceRef
        }
        // The queue the reference is scheduled on, where it is also deallocated: once a
        // reference is on a queue, deallocating it elsewhere races with that queue's reads.
        private let queue = DispatchQueue(label: "jarvis.network.advertise")

        /// Receives the daemon's replies on `queue`: the name registered (changed by the system
        /// on a conflict) and failures after the start, which a nil callback would hide.
        final class Replies: Sendable {
            let status = Locked(NetworkRegistrationStatus.pending)
            let requested: String
            let onChange: @Sendable (NetworkRegistrationStatus) -> Void

            init(requested: String, onChange: @escaping @Sendable (NetworkRegistrationStatus) -> Void) {
                self.requested = requested
                self.onChange = onChange
            }
        }

        /// The replies' receiver, kept alive as long as the registration (its context pointer).
        let replies: Replies

        init(
            name: String, port: UInt16, txtRecord: [UInt8],
            onChange: @escaping @Sendable (NetworkRegistrationStatus) -> Void = { _ in }
        ) throws(JarvisError) {
            replies = Replies(requested: name, onChange: onChange)
            var reference: DNSServiceRef?
            let context = Unmanaged.passUnretained(replies).toOpaque()
            let status = txtRecord.withUnsafeBytes { bytes in
                DNSServiceRegister(
                    &reference, 0, 0, name, NetworkAgentAdvert.serviceType, nil, nil, port.bigEndian,
                    UInt16(bytes.count), bytes.baseAddress, { _, flags, errorCode, name, _, _, context in
                        guard let context else { return }
                        let replies = Unmanaged<Replies>.fromOpaque(context).takeUnretainedValue()
                        let status = NetworkRegistrationStatus.reply(
                            flags: flags, errorCode: errorCode, name: name.map { String(cString: $0) })
                        replies.status.withLock { $0 = status }
                        replies.onChange(status)
                    }, context)
            }
            // `kDNSServiceErr_NoError` is imported as `Int`, the status as `DNSServiceErrorType`.
            guard status == DNSServiceErrorType(kDNSServiceErr_NoError), let reference else {
                throw JarvisError(
                    .unavailable,
                    "Bonjour registration of '\(name)' failed (DNS-SD error \(status)); on iOS, list _jarvis._tcp under NSBonjourServices and add NSLocalNetworkUsageDescription in Info.plist"
                )
            }
            _ = DNSServiceSetDispatchQueue(reference, queue)
            let handle = ServiceReference(raw: reference)
            lock.withLock { $0 = handle }
        }

        /// Withdraws the service from the network. Idempotent.
        func stop() {
            let reference = lock.withLock { current -> ServiceReference? in
                defer { current = nil }
                return current
            }?.raw
            // Never called on `queue` itself: the reply callback runs there and never calls stop().
            if let reference { queue.sync { DNSServiceRefDeallocate(reference) } }
        }

        deinit { stop() }
    }
#endif
