import JarvisCore

/// Why the text in an editor cannot be saved, for the face to show at the field: the message
/// and, for JSON, the line and column where the text goes wrong.
public struct InspectorFieldProblem: Sendable, Hashable {
    /// What is wrong, for beside the field.
    public var message: String
    /// The 1-based line of the problem in the text (JSON), or nil.
    public var line: Int?
    /// The 1-based column of the problem in that line, in characters (JSON), or nil.
    public var column: Int?

    /// A problem at an optional place.
    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// The problem `error` reports for `text` typed into `draft`'s editor: for JSON text that
    /// does not parse, the parser's message with its line and column; else the message.
    public init(_ error: JarvisError, text: String, draft: ValueDraft) {
        if draft.editor == .json {
            do {
                _ = try JSONParser.parse(text)
            } catch {
                self.init(error.message, line: error.line, column: error.column)
                return
            }
        }
        self.init(error.message)
    }

    /// `line 3, column 14: expected ','…`, or the message alone.
    public var text: String {
        guard let line, let column else { return message }
        return "line \(line), column \(column): \(message)"
    }
}

extension InspectorSession {
    /// Why `text` cannot be saved as `draft`, checked as a save would check it (the type, the
    /// catalog, a secret's replacement); nil when it can.
    public func problem(_ draft: ValueDraft, text: String) -> InspectorFieldProblem? {
        do {
            _ = try check(draft, text: text)
            return nil
        } catch {
            return InspectorFieldProblem(error, text: text, draft: draft)
        }
    }
}
