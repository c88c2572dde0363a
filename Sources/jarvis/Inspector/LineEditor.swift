/// A one-line text field: what the user types at a prompt or into the filter.
struct LineEditor {
    private(set) var characters: [Character]
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text typed so far.
    var text: String { String(characters) }

    /// Applies an editing key; returns false for keys that are not editing (Enter, Esc…).
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        default:
            return false
        }
        return true
    }

    /// The visible part of the text in `width` cells, and where the cursor falls in it. A
    /// hidden character (a bidi override or a zero-width space pasted in) shows as its escape,
    /// as the rows do (``Terminal/escaped(_:)``).
    func visible(width: Int) -> (text: String, cursor: Int) {
        guard width > 1 else { return ("", 0) }
        let cells = characters.map { Array(Terminal.escaped(String($0))) }
        let shown = cells.flatMap { $0 }
        let at = cells[..<cursor].reduce(0) { $0 + $1.count }
        let start = max(0, at - (width - 1))
        let end = min(shown.count, start + width)
        return (String(shown[start..<end]), at - start)
    }
}
