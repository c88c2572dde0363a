import Foundation

/// Output helpers: colour only on a terminal and never with `NO_COLOR`.
enum Terminal {
    static let isInteractive = isatty(STDOUT_FILENO) == 1

    /// The terminal's width in columns when standard output is one; nil when it is piped,
    /// so piped output is never cut to a width.
    static let width: Int? = {
        guard isInteractive else { return nil }
        if let size = TerminalShim.windowSize(STDOUT_FILENO) { return size.columns }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }()

    /// Text cut to `width` characters with `…`, or whole when `width` is nil.
    static func fit(_ text: String, _ width: Int?) -> String {
        guard let width, text.count > width else { return text }
        return width > 1 ? String(text.prefix(width - 1)) + "…" : ""
    }
    static let useColor =
        isInteractive && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    static func bold(_ text: String) -> String { paint(text, "1") }
    static func dim(_ text: String) -> String { paint(text, "2") }
    static func cyan(_ text: String) -> String { paint(text, "36") }
    static func yellow(_ text: String) -> String { paint(text, "33") }
    static func red(_ text: String) -> String { paint(text, "31") }
    static func green(_ text: String) -> String { paint(text, "32") }

    private static func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Writes a line to standard output.
    static func out(_ text: String) {
        outBytes(Array((text + "\n").utf8))
    }

    /// Writes raw bytes to standard output; a reader that went away (`jarvis ls | head`)
    /// ends the program quietly, as for any Unix tool, instead of trapping in `FileHandle.write`.
    static func outBytes(_ bytes: [UInt8]) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(bytes))
        } catch {
            exit(0)
        }
    }

    /// Writes a line to standard error.
    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Pads to a display width (counting characters, which is right for the ASCII-heavy columns).
    /// Text as wide as the column or wider still gets one space, so it never runs into the next column
    /// (a 48-character VS Code setting name followed by `dictionary` must stay two words).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
