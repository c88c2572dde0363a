/// A short message a face shows after an action (saved, deleted, refused) and how long it
/// stays: long enough to read, then it goes away by itself.
public struct PanelMessage: Sendable, Hashable, Identifiable {
    /// What happened.
    public var text: String
    /// Whether it reports a failure (shown in the error colour, and kept longer).
    public var isProblem: Bool
    /// Tells two equal messages in a row apart, so the second one restarts the timer.
    public var id: Int

    /// A message; `id` should differ from the previous message's.
    public init(_ text: String, isProblem: Bool = false, id: Int = 0) {
        self.text = text
        self.isProblem = isProblem
        self.id = id
    }

    /// How long it stays: 4 seconds plus reading time (about 15 characters a second), at most
    /// 10 seconds; a problem at least 6.
    public var lifetime: Duration {
        let reading = Double(text.count) / 15
        let least = isProblem ? 6.0 : 4.0
        return .milliseconds(Int(min(10, max(least, 2 + reading)) * 1000))
    }
}
