import Foundation

/// Masks secret values with a key drawn at random when the agent starts, so a fingerprint or
/// revision seen by a client cannot be used to guess a short secret offline.
///
/// Both are keyed by the item's address as well as its value: equal values under different
/// keys never show equal fingerprints or revisions, so a client that may write a scratch key
/// cannot store guesses there and compare them with a secret's fingerprint.
package struct SecretMasker: Sendable {
    private let key: [UInt8]

    /// A masker with a fresh random key.
    package init() {
        var generator = SystemRandomNumberGenerator()
        key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// What a client sees instead of the value stored at `address`.
    package func mask(_ value: PreferenceValue, at address: PreferenceAddress) -> PreferenceItem.Mask {
        let bytes = Self.bytes(of: value)
        let length: Int
        if case .string(let text) = value { length = text.count } else { length = bytes.count }
        let digest = SHA256.hmac(key: key, message: Array("fingerprint:".utf8) + Self.bytes(of: address) + bytes)
        return PreferenceItem.Mask(length: length, fingerprint: Array(digest.prefix(4)).hexString)
    }

    /// A revision for the secret stored at `address`, keyed too, unlike the plain content hash.
    package func revision(of value: PreferenceValue, at address: PreferenceAddress) -> Revision {
        let plain = Revision(of: value).text
        let digest = SHA256.hmac(
            key: key, message: Array("revision:".utf8) + Self.bytes(of: address) + Array(plain.utf8))
        return Revision(Array(digest.prefix(8)).hexString)
    }

    /// The address, each part ended by a byte no name holds, so parts cannot run together.
    private static func bytes(of address: PreferenceAddress) -> [UInt8] {
        [address.scanner, address.container, address.key].flatMap { Array($0.utf8) + [0] }
    }

    private static func bytes(of value: PreferenceValue) -> [UInt8] {
        switch value {
        case .string(let text): Array(text.utf8)
        case .data(let data): Array(data)
        default: Array(Revision(of: value).text.utf8)
        }
    }
}
