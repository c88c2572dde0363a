/// One key press, decoded from the bytes a terminal sends.
enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// Ctrl and a letter (`control("c")` is Ctrl-C, which the raw terminal delivers as a key).
    case control(Character)
    /// A sequence the inspector does not use (function keys, mouse reports…).
    case unknown
}
