import JarvisCore

/// The secret a TCP client must present in `hello`: 256 random bits, as 64 hex digits.
///
/// Compared in constant time over SHA-256 digests, so neither the position of the first wrong
/// character nor the length of the guess shows in the answer time.
package struct AgentToken: Sendable, Hashable {
    /// The token text, as printed and stored in the discovery file.
    package let text: String
    private let digest: [UInt8]

    /// Uses a given token text (for tests and hosts that manage tokens themselves).
    package init(_ text: String) {
        self.text = text
        digest = SHA256.hash(Array(text.utf8))
    }

    /// A fresh token from the system's cryptographic random source.
    package static func random() -> AgentToken {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<4 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                text.append(hex[Int(word & 0xF)])
                word >>= 4
            }
        }
        return AgentToken(String(decoding: text, as: UTF8.self))
    }

    /// Whether `candidate` is the token, in time independent of where they differ.
    package func matches(_ candidate: String) -> Bool {
        let other = SHA256.hash(Array(candidate.utf8))
        var difference: UInt8 = 0
        for index in digest.indices {
            difference |= digest[index] ^ other[index]
        }
        return difference == 0
    }
}
