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
    /// ``stop()``, with replies handled on a private queue.
    final class DNSSDRegistration: @unchecked Sendable {
        // Guards `reference`: set in init, released once by `stop()` or `deinit`.
        private let lock = Locked<DNSServiceRef?>(nil)

        init(name: String, port: UInt16, txtRecord: [UInt8]) throws(JarvisError) {
            var reference: DNSServiceRef?
            let status = txtRecord.withUnsafeBytes { bytes in
                DNSServiceRegister(
                    &reference, 0, 0, name, NetworkAgentAdvert.serviceType, nil, nil, port.bigEndian,
                    UInt16(bytes.count), bytes.baseAddress, nil, nil)
            }
            guard status == kDNSServiceErr_NoError, let reference else {
                throw JarvisError(
                    .unavailable,
                    "Bonjour registration of '\(name)' failed (DNS-SD error \(status)); on iOS, list _jarvis._tcp under NSBonjourServices and add NSLocalNetworkUsageDescription in Info.plist"
                )
            }
            _ = DNSServiceSetDispatchQueue(reference, DispatchQueue(label: "jarvis.network.advertise"))
            lock.withLock { $0 = reference }
        }

        /// Withdraws the service from the network. Idempotent.
        func stop() {
            let reference = lock.withLock { current -> DNSServiceRef? in
                defer { current = nil }
                return current
            }
            if let reference { DNSServiceRefDeallocate(reference) }
        }

        deinit { stop() }
    }
#endif
