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

    /// The visible part of the text in `width` cells, and where the cursor falls in it.
    func visible(width: Int) -> (text: String, cursor: Int) {
        guard width > 1 else { return ("", 0) }
        let start = max(0, cursor - (width - 1))
        let end = min(characters.count, start + width)
        return (String(characters[start..<end]), cursor - start)
    }
}
