import JarvisCore

/// Making text from an agent safe to print on a terminal, by the one rule every face shares
/// (``VisibleText``, also used by `jarvis-agent`). Every line-mode command and the inspector
/// print keys, values and names through ``escaped(_:)``; `--json` output is JSON, where the
/// encoder already escapes them.
extension Terminal {
    /// `text` with every control, separator and invisible format character written visibly.
    static func escaped(_ text: String) -> String { VisibleText.escaped(text) }

    /// A message of several lines, each escaped: its own line breaks stay.
    static func escapedLines(_ text: String) -> String { VisibleText.escapedLines(text) }
}
