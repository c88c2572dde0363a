extension PanelMessage {
    /// What VoiceOver says when the message appears: every saved, deleted, copied or refused
    /// message is announced, since it goes away by itself and may never be reached by
    /// swiping. A problem is said as such, as its colour shows it to a sighted user.
    public var announcement: String {
        switch message.kind {
        case .info: return text
        case .warning: return "Warning: " + text
        case .error: return "Error: " + text
        }
    }
}
