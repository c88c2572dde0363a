/// One frame of the inspector: a row of styled text per terminal line, rendered by a full
/// redraw into one buffer that is written with one `write`, so the screen never shows a half
/// drawn frame and there is no diffing state to get wrong.
struct ScreenBuffer {
    /// How a run of text looks. Colours are dropped when colour is off; bold, dim and
    /// reverse are attributes, not colours, and stay.
    enum Style: Sendable {
        case plain, bold, dim, reverse, title, accent, warning, error, changed, badge
    }

    /// A run of text in one style.
    struct Segment {
        var text: String
        var style: Style
    }

    let rows: Int
    let columns: Int
    let color: Bool
    private var lines: [[Segment]]

    init(rows: Int, columns: Int, color: Bool) {
        self.rows = rows
        self.columns = columns
        self.color = color
        lines = Array(repeating: [], count: rows)
    }

    /// Replaces line `row` (0-based); rows outside the screen are ignored.
    mutating func set(_ row: Int, _ segments: [Segment]) {
        guard row >= 0, row < rows else { return }
        lines[row] = segments
    }

    /// Replaces line `row` with one run of text.
    mutating func set(_ row: Int, _ text: String, _ style: Style = .plain) {
        set(row, [Segment(text: text, style: style)])
    }

    /// The bytes that draw the whole frame.
    func render() -> [UInt8] {
        var out = "\u{1B}[?25l"
        for (index, segments) in lines.enumerated() {
            out += "\u{1B}[\(index + 1);1H\u{1B}[0m"
            var used = 0
            var fillStyle: Style = .plain
            for segment in segments where used < columns {
                let (text, width) = Self.clip(segment.text, to: columns - used)
                out += code(segment.style) + text + "\u{1B}[0m"
                used += width
                fillStyle = segment.style
            }
            // A reversed line (the selection, the title bar) is reversed to the right edge.
            if used < columns, fillStyle == .reverse || fillStyle == .title {
                out += code(fillStyle) + String(repeating: " ", count: columns - used) + "\u{1B}[0m"
            } else {
                out += "\u{1B}[K"
            }
        }
        return Array(out.utf8)
    }

    private func code(_ style: Style) -> String {
        let sequence: String
        switch style {
        case .plain: return ""
        case .bold: sequence = "1"
        case .dim: sequence = "2"
        case .reverse: sequence = "7"
        case .title: sequence = color ? "1;37;44" : "1;7"
        case .accent: sequence = color ? "36" : ""
        case .warning: sequence = color ? "33" : ""
        case .error: sequence = color ? "1;31" : "1"
        case .changed: sequence = color ? "1;30;43" : "1"
        case .badge: sequence = color ? "1;37;41" : "1;7"
        }
        return sequence.isEmpty ? "" : "\u{1B}[\(sequence)m"
    }

    /// `text` cut to at most `width` terminal cells (an ellipsis marks the cut), and the cells
    /// used; control characters are shown escaped (``Terminal/escaped(_:)``), never sent raw.
    static func clip(_ raw: String, to width: Int) -> (String, Int) {
        guard width > 0 else { return ("", 0) }
        let text = Terminal.escaped(raw)
        var out = ""
        var used = 0
        let total = text.reduce(0) { $0 + cells($1) }
        let limit = total > width ? width - 1 : width
        for character in text {
            let size = cells(character)
            if used + size > limit { break }
            out.append(character)
            used += size
        }
        if total > width {
            out += "…"
            used += 1
        }
        return (out, used)
    }

    /// Display cells of a character: two for East Asian wide forms and most emoji.
    static func cells(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first?.value, scalar >= 0x1100 else { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar) } ? 2 : 1
    }
}

extension ScreenBuffer.Segment {
    /// A plain run of text.
    static func plain(_ text: String) -> Self { Self(text: text, style: .plain) }
}
