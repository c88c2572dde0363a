import JarvisCore

/// The name a client gives in `hello`, as the agent keeps it: printable text of bounded length.
///
/// The name reaches the audit trail, `history`, the host's `onAudit` and every face that shows
/// who did what, so the agent cleans it once, where it comes in: a name cannot break a line,
/// reorder the text around it or fill a screen, whichever face shows it.
package enum ClientName {
    /// The longest name kept, in bytes of UTF-8 (a longer one is cut, and ends with `…`).
    package static let maxBytes = 128
    /// What stands in for a character that is not printable.
    package static let replacement: Character = "\u{FFFD}"

    /// `raw` with every control character (C0, DEL, C1), line and paragraph separator (U+2028,
    /// U+2029) and invisible format character (bidi overrides and isolates, zero-width
    /// characters, the byte order mark) replaced by U+FFFD, cut at a character boundary to at
    /// most ``maxBytes`` bytes; nil for no name or an empty one.
    package static func cleaned(_ raw: String?) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        var printable = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            if isPrintable(scalar) {
                printable.append(scalar)
            } else {
                printable.append(contentsOf: String(replacement).unicodeScalars)
            }
        }
        let text = String(printable)
        guard text.utf8.count > maxBytes else { return text }
        let ellipsis = "…"
        var cut = ""
        var bytes = 0
        // By whole characters, so a cut never leaves a base letter without its accents.
        for character in text {
            let size = character.utf8.count
            guard bytes + size + ellipsis.utf8.count <= maxBytes else { break }
            cut.append(character)
            bytes += size
        }
        return cut + ellipsis
    }

    /// Printable by the rule every face shows text by (``VisibleText/isHidden(_:)``).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool { !VisibleText.isHidden(scalar) }
}
