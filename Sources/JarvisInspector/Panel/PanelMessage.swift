/// A message a face shows for a while after an action (saved, deleted, refused), and how long
/// it stays: long enough to read, then it goes away by itself.
public struct PanelMessage: Sendable, Hashable, Identifiable {
    /// What to say, and how (``InspectorMessage`` words it for every face).
    public var message: InspectorMessage
    /// Tells two equal messages in a row apart, so the second one restarts the timer.
    public var id: Int

    /// A message; `id` should differ from the previous message's.
    public init(_ message: InspectorMessage, id: Int = 0) {
        self.message = message
        self.id = id
    }

    /// The text.
    public var text: String { message.text }

    /// Whether it reports a refusal or failure (shown in the error colour).
    public var isProblem: Bool { message.kind == .error }

    /// How long it stays: 4 seconds plus reading time (about 15 characters a second), at most
    /// 10 seconds; a warning or a problem at least 6.
    public var lifetime: Duration {
        let reading = Double(text.count) / 15
        let least = message.kind == .info ? 4.0 : 6.0
        return .milliseconds(Int(min(10, max(least, 2 + reading)) * 1000))
    }
}
