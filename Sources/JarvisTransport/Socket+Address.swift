#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A resolved `sockaddr` of one of the three families Jarvis speaks.
enum SocketAddress {
    case unix(sockaddr_un)
    case ipv4(sockaddr_in)
    case ipv6(sockaddr_in6)

    /// The `AF_…` constant to create a matching socket with.
    var family: Int32 {
        switch self {
        case .unix: AF_UNIX
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        }
    }

    /// Lends the address as the generic `sockaddr` pointer and length that POSIX calls take.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch self {
        case .unix(let address): Self.lend(address, body)
        case .ipv4(let address): Self.lend(address, body)
        case .ipv6(let address): Self.lend(address, body)
        }
    }

    private static func lend<Address, Result>(
        _ address: Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}

extension Socket {
    /// Turns an endpoint into a socket address without any name lookup.
    ///
    /// TCP hosts must be IPv4 or IPv6 literals or `localhost` (which means 127.0.0.1): a debugging
    /// agent should never block on DNS, and a literal says exactly which interface is exposed.
    static func resolve(_ endpoint: Endpoint, operation: String) throws(SocketError) -> SocketAddress {
        switch endpoint {
        case .unix(let path):
            guard let address = unixAddress(path) else {
                throw SocketError(
                    operation: operation, target: path,
                    detail: "the path is \(path.utf8.count) bytes but Unix socket paths must be shorter than "
                        + "\(unixPathCapacity) bytes on this system; use a shorter runtime folder, for example under /tmp"
                )
            }
            return .unix(address)
        case .tcp(let host, let port):
            let literal = host == "localhost" ? "127.0.0.1" : host
            var ipv4 = in_addr()
            if inet_pton(AF_INET, literal, &ipv4) == 1 {
                return .ipv4(ipv4Address(ipv4, port: port))
            }
            var ipv6 = in6_addr()
            if inet_pton(AF_INET6, literal, &ipv6) == 1 {
                return .ipv6(ipv6Address(ipv6, port: port))
            }
            throw SocketError(
                operation: operation, target: endpoint.target,
                detail: "the host must be an IP address such as 127.0.0.1 or ::1, or localhost"
            )
        }
    }

    /// `address:port` for an IP peer, the kernel's credentials for a Unix peer.
    static func describePeer(_ storage: sockaddr_storage, fileDescriptor: Int32) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: 64)
        let port = Self.port(of: storage) ?? 0
        switch Int32(storage.ss_family) {
        case AF_INET:
            let ok = withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    withUnsafePointer(to: address.pointee.sin_addr) {
                        inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) != nil
                    }
                }
            }
            return ok ? "\(Self.string(text)):\(port)" : "ipv4 peer"
        case AF_INET6:
            let ok = withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    withUnsafePointer(to: address.pointee.sin6_addr) {
                        inet_ntop(AF_INET6, $0, &text, socklen_t(text.count)) != nil
                    }
                }
            }
            return ok ? "[\(Self.string(text))]:\(port)" : "ipv6 peer"
        default:
            return unixPeerDescription(fileDescriptor)
        }
    }

    /// Decodes a NUL-terminated C string held in an array.
    static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The port of an IP address in host byte order; nil for other families.
    static func port(of storage: sockaddr_storage) -> UInt16? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        default:
            return nil
        }
    }
}
