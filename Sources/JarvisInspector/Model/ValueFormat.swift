import Foundation
import JarvisCore

/// How values read for people: plain JSON with dates and data shown as such, never the wire's
/// `$real`/`$date`/`$data` wrappers, and never longer than asked.
///
/// Rendering stops once the limit is reached, so a 10 MB blob or a 100,000-key dictionary
/// costs what is shown, not what is stored.
public enum ValueFormat {
    /// One line, at most `limit` characters (`…` marks a cut). Newlines show as `⏎`; every
    /// other control, separator and invisible format character as an escape (``VisibleText``).
    public static func preview(_ value: PreferenceValue, limit: Int = 80) -> String {
        var output = Bounded(limit: max(2, limit))
        switch value {
        case .string(let text): output.append(text)
        default: write(value, into: &output, pretty: false, indent: "")
        }
        // Most previews hold no newline: Foundation's search cost a tenth of opening a suite.
        guard output.text.utf8.contains(10) else { return VisibleText.escaped(output.text) }
        return VisibleText.escaped(output.text.replacingOccurrences(of: "\n", with: "⏎"))
    }

    /// Many lines: scalars plain, dictionaries and arrays as indented JSON (dates inside as
    /// ISO 8601 strings, data as Base64 strings, NaN and infinities as the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"`, as the wire's `$real` writes them), cut after `limit` characters with a line
    /// saying how much was left out. Hidden characters (``VisibleText``) show as escapes: in a
    /// string, its line breaks stay; in JSON, as `\uHHHH`, so the text stays valid JSON.
    public static func full(_ value: PreferenceValue, limit: Int = 256 * 1024) -> String {
        var output = Bounded(limit: max(2, limit))
        switch value {
        case .string(let text):
            output.append(text)
            output.replaceText(VisibleText.escapedLines(output.text))
        case .date(let date): output.append(value.unrepresentableText ?? DateText.format(date))
        case .real(let number): output.append(value.unrepresentableText ?? realText(number))
        case .data(let data):
            // Only the bytes that can show are encoded: a 10 MB blob costs the limit.
            // (A caller may pass Int.max for no limit: the arithmetic must not overflow.)
            let shown = limit < Int.max / 2 ? (limit / 4 + 1) * 3 : Int.max
            output.append((data.count > shown ? data.prefix(shown) : data).base64EncodedString())
        default: write(value, into: &output, pretty: true, indent: "")
        }
        guard output.isCut else { return output.text }
        return output.text + "\n(shortened: the value is larger than \(limit) characters)"
    }

    /// What a reader of ``full(_:limit:)``'s JSON must know: that dates, data and non-finite
    /// numbers inside a dictionary or array are written as strings (JSON has none of them);
    /// nil when it holds none.
    public static func jsonNote(_ value: PreferenceValue) -> String? {
        guard value.type == .array || value.type == .dictionary else { return nil }
        var date = false
        var data = false
        var nonFinite = false
        // Depth first, stopping once all were seen.
        var pending = [value]
        while let next = pending.popLast(), !(date && data && nonFinite) {
            switch next {
            case .date: date = true
            case .data: data = true
            case .real(let number): nonFinite = nonFinite || !number.isFinite
            case .array(let elements): pending.append(contentsOf: elements)
            case .dictionary(let members): pending.append(contentsOf: members.values)
            default: break
            }
        }
        let shown = [
            date ? ("Dates", "are", "ISO 8601 strings") : nil,
            data ? ("Data", "is", "Base64 strings") : nil,
            nonFinite ? ("Non-finite numbers", "are", #"the strings "NaN", "Infinity" and "-Infinity""#) : nil,
        ].compactMap { $0 }
        guard let first = shown.first else { return nil }
        if shown.count == 1 {
            let lacks = date ? "no dates" : data ? "no bytes" : "no such numbers"
            return "\(first.0) \(first.1) shown as \(first.2): JSON has \(lacks)."
        }
        let rest = shown.dropFirst().map { "\($0.0.prefix(1).lowercased() + $0.0.dropFirst()) as \($0.2)" }
        let others = rest.count == 1 ? rest[0] : rest.dropLast().joined(separator: ", ") + " and " + rest[rest.count - 1]
        let lacks = shown.count == 2 ? "neither" : "none of them"
        return "\(first.0) \(first.1) shown as \(first.2) and \(others): JSON has \(lacks)."
    }

    /// A scalar as an editor starts from: what ``ValueDraft/value(from:)`` reads back.
    public static func editText(_ value: PreferenceValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return value.unrepresentableText ?? realText(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let date): return value.unrepresentableText ?? DateText.format(date)
        case .data(let data): return data.base64EncodedString()
        case .bigNumber(let number): return number.literal
        case .array, .dictionary:
            if let plain = try? value.plainJSON() { return JSONWriter.string(plain, pretty: true) }
            return JSONWriter.string(value.json, pretty: true)
        }
    }

    /// A real as people write it: `5.0` stays `5.0`, not `5`.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return String(number)
    }

    private static func write(_ value: PreferenceValue, into output: inout Bounded, pretty: Bool, indent: String) {
        guard !output.isFull else { return }
        switch value {
        case .string(let text):
            // Quoting a 10 MB string to show 80 characters of it would cost the 10 MB.
            let room = output.room
            output.append(quoted(text.utf8.count > room ? String(text.prefix(room)) : text))
        case .integer(let number): output.append(String(number))
        // Inside JSON, a string, so the text stays JSON.
        case .date where value.unrepresentableText != nil, .real where value.unrepresentableText != nil:
            let shown = value.unrepresentableText ?? ""
            output.append(pretty ? quoted(shown) : shown)
        // JSON has no NaN or infinity: in the JSON view, the wire's `$real` strings.
        case .real(let number) where pretty && !number.isFinite:
            output.append(number.isNaN ? #""NaN""# : (number < 0 ? #""-Infinity""# : #""Infinity""#))
        case .real(let number): output.append(realText(number))
        case .boolean(let flag): output.append(flag ? "true" : "false")
        // Inside a dictionary or an array: as strings, so the text is JSON (a preview is short).
        case .date(let date): output.append(pretty ? quoted(DateText.format(date)) : DateText.format(date))
        case .data(let data) where pretty: output.append(quoted(data.base64EncodedString()))
        case .data(let data):
            output.append(data.count <= 48 ? "<\(data.base64EncodedString())>" : "<\(data.count) bytes>")
        case .bigNumber(let number): output.append(number.literal)
        case .array(let values):
            guard !values.isEmpty else { return output.append("[]") }
            output.append("[")
            let inner = indent + "  "
            for (index, element) in values.enumerated() {
                if output.isFull { return }
                if index > 0 { output.append(pretty ? "," : ", ") }
                if pretty { output.append("\n" + inner) }
                write(element, into: &output, pretty: pretty, indent: inner)
            }
            output.append(pretty ? "\n" + indent + "]" : "]")
        case .dictionary(let values):
            guard !values.isEmpty else { return output.append("{}") }
            output.append("{")
            let inner = indent + "  "
            for (index, key) in values.keys.sorted().enumerated() {
                if output.isFull { return }
                if index > 0 { output.append(pretty ? "," : ", ") }
                if pretty { output.append("\n" + inner) }
                output.append(quoted(key) + ": ")
                if let element = values[key] { write(element, into: &output, pretty: pretty, indent: inner) }
            }
            output.append(pretty ? "\n" + indent + "}" : "}")
        }
    }

    private static func quoted(_ text: String) -> String {
        VisibleText.escapedJSON(JSONWriter.string(.string(text)))
    }

    /// Text that stops growing at a limit.
    private struct Bounded {
        let limit: Int
        private(set) var text = ""
        private(set) var count = 0
        private(set) var isCut = false
        var isFull: Bool { isCut }
        /// Characters left before the cut.
        var room: Int { limit - count }

        init(limit: Int) { self.limit = limit }

        /// Replaces what was written with `shown` (the same text, escaped), keeping the count.
        mutating func replaceText(_ shown: String) { text = shown }

        /// Appends `piece`, counting at most the characters that fit (never the whole of a
        /// 10 MB string).
        mutating func append(_ piece: String) {
            guard !isCut else { return }
            let room = limit - count
            let head = piece.prefix(room < Int.max ? room + 1 : room)
            let length = head.count
            if length <= room {
                text += piece
                count += length
            } else {
                text += piece.prefix(max(0, room - 1)) + "…"
                count = limit
                isCut = true
            }
        }
    }
}
