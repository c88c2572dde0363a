/// Making text from other programs safe to print on a terminal, for every executable.
///
/// Keys, values, container, device, agent and client names come from other programs and
/// people: a stored value holding `ESC ] 0 ; … BEL` would set the terminal's title, `ESC [ 2 J`
/// clear it, a CR overwrite the start of a line, and a newline in a client name forge a line
/// of `jarvis history`. `jarvis` prints such text through it in every line-mode command and
/// the inspector, and `jarvis-agent` in what it announces (the Simulator devices it found);
/// `--json` output is JSON, where the encoder already escapes them.
package enum TerminalText {
    /// `text` with every control character (C0, DEL and C1) written visibly: `\n`, `\r`,
    /// `\t`, and `\xHH` or `\u{HH}` for the others. Other text, backslashes included, is
    /// unchanged, so ordinary text prints exactly as stored.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.append(scalar)
                continue
            }
            let shown: String
            switch scalar.value {
            case 0x0A: shown = "\\n"
            case 0x0D: shown = "\\r"
            case 0x09: shown = "\\t"
            case 0x80...0x9F: shown = "\\u{" + hex(scalar.value) + "}"
            default: shown = "\\x" + hex(scalar.value)
            }
            out.append(contentsOf: shown.unicodeScalars)
        }
        return String(out)
    }

    /// A message of several lines, each escaped: its own line breaks stay, every other
    /// control character (a CR, an escape sequence) is shown, not obeyed.
    package static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            .joined(separator: "\n")
    }

    /// Whether a terminal would act on the scalar instead of showing it.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
