import JarvisCommandLine

/// Making text from an agent safe to print on a terminal (see ``TerminalText``, shared with
/// `jarvis-agent`). Every line-mode command and the inspector print keys, values and names
/// through ``escaped(_:)``; `--json` output is JSON, where the encoder already escapes them.
extension Terminal {
    /// `text` with every control character (C0, DEL and C1) written visibly.
    static func escaped(_ text: String) -> String { TerminalText.escaped(text) }

    /// A message of several lines, each escaped: its own line breaks stay.
    static func escapedLines(_ text: String) -> String { TerminalText.escapedLines(text) }

    /// Whether a terminal would act on the scalar instead of showing it.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { TerminalText.isControl(scalar) }
}
