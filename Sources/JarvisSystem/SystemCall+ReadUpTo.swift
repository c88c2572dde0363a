#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#else
    import Musl
#endif

extension SystemCall {
    /// Reads from `descriptor` until its end or until `limit` bytes are in hand, whichever
    /// comes first, carrying on through `EINTR`; a read error ends the reading with what was
    /// read so far. Never allocates more than `limit` bytes.
    package static func read(_ descriptor: Int32, upTo limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, limit))
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Self.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
