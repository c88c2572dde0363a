import Foundation

extension String {
    /// The text in Unicode's composed normal form (NFC): the one spelling names are compared
    /// in, so that `contraseña` typed with `ñ` and with `n` + U+0303 are one name to every
    /// rule, as they already are to `String`'s `==`, `Dictionary` and `Set`.
    ///
    /// Text whose scalars all lie below U+0300 (ASCII, Latin-1, most names) is already
    /// composed and is returned as it is, without a copy: no combining mark, and no scalar
    /// there has another composed form. Foundation's mapping does the rest, on Apple
    /// platforms and on Linux alike (both implement Unicode's NFC, Hangul included).
    package var composedName: String {
        // U+0300 is the UTF-8 lead byte 0xCC; every byte of a scalar below it is smaller.
        if utf8.allSatisfy({ $0 < 0xCC }) { return self }
        return precomposedStringWithCanonicalMapping
    }
}
