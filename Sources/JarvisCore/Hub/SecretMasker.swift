import Foundation

/// Masks secret values with a key drawn at random when the agent starts, so a fingerprint or
/// revision seen by a client cannot be used to guess a short secret offline.
package struct SecretMasker: Sendable {
    private let key: [UInt8]

    /// A masker with a fresh random key.
    package init() {
        var generator = SystemRandomNumberGenerator()
        key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// What a client sees instead of `value`.
    package func mask(_ value: PreferenceValue) -> PreferenceItem.Mask {
        let bytes = Self.bytes(of: value)
        let length: Int
        if case .string(let text) = value { length = text.count } else { length = bytes.count }
        let digest = SHA256.hmac(key: key, message: Array("fingerprint:".utf8) + bytes)
        return PreferenceItem.Mask(length: length, fingerprint: Array(digest.prefix(4)).hexString)
    }

    /// A revision for a secret that is keyed too, unlike the plain content hash.
    package func revision(of value: PreferenceValue) -> Revision {
        let plain = Revision(of: value).text
        let digest = SHA256.hmac(key: key, message: Array("revision:".utf8) + Array(plain.utf8))
        return Revision(Array(digest.prefix(8)).hexString)
    }

    private static func bytes(of value: PreferenceValue) -> [UInt8] {
        switch value {
        case .string(let text): Array(text.utf8)
        case .data(let data): Array(data)
        default: Array(Revision(of: value).text.utf8)
        }
    }
}
