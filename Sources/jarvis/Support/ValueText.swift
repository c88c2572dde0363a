import Foundation
import JarvisCore
import JarvisInspector

/// Reading values typed on the command line and printing values for people.
enum ValueText {
    /// The type flags of `jarvis set`, in the spirit of `defaults write`.
    static let typeFlags: [(flag: String, type: PreferenceType?)] = [
        ("--string", .string), ("--int", .integer), ("--real", .real), ("--bool", .boolean),
        ("--date", .date), ("--data", .data), ("--json", nil),
    ]

    /// An agent's message as the CLI's reader acts on it: the wire's `send type "integer"`
    /// becomes the flag that does it, `use --int`.
    static func forCommandLine(_ message: String) -> String {
        var text = message
        for (flag, type) in typeFlags {
            let names = type.map { [$0.rawValue] } ?? ["array", "dictionary"]
            let hint = type == nil ? "--type json" : flag
            for name in names { text = text.replacingOccurrences(of: "send type \"\(name)\"", with: "use \(hint)") }
        }
        return text
    }

    /// The names `--type` takes: a type flag without its dashes.
    static let typeNames = "string, int, real, bool, date, data or json"

    /// The type `--type NAME` names: `.some(nil)` for `json` (the wire encoding), nil when
    /// `name` is no type.
    static func type(named name: String) -> PreferenceType?? {
        typeFlags.first(where: { $0.flag == "--" + name }).map(\.type)
    }

    /// What changed inside a dictionary or array that was replaced by another version of
    /// itself, place by place; nil when the change is not inside one (a scalar, an added or
    /// removed key, a masked secret).
    static func innerChanges(old: PreferenceItem?, new: PreferenceItem?) -> [PreferenceValue.Difference]? {
        guard let was = old?.value, let now = new?.value, was.type == now.type,
            was.type == .dictionary || was.type == .array
        else { return nil }
        let differences = was.differences(to: now, limit: 20)
        return differences.isEmpty ? nil : differences
    }

    /// `swift → rust`, `(added) → rust`, `swift → (removed)`, escaped for the terminal.
    static func arrow(_ difference: PreferenceValue.Difference, limit: Int = 40) -> String {
        let old = difference.old.map { short($0, limit: limit) }
        let new = difference.new.map { short($0, limit: limit) }
        switch (old, new) {
        case (let old?, let new?): return "\(old) → \(new)"
        case (nil, let new?): return "(added) → \(new)"
        case (let old?, nil): return "\(old) → (removed)"
        case (nil, nil): return ""
        }
    }

    /// The wire form of the differences, for `--json`.
    static func json(_ differences: [PreferenceValue.Difference]) -> JSONValue {
        .array(
            differences.map { difference in
                var object: JSONObject = ["pointer": .string(difference.pointer.description)]
                if let old = difference.old { object["old"] = old.json }
                if let new = difference.new { object["new"] = new.json }
                return .object(object)
            })
    }

    /// Parses `text` as the type a flag asked for (``ValueReading/value(_:as:wireEncoding:)``);
    /// `nil` type means JSON in the wire encoding, whatever its type.
    static func parse(_ text: String, as type: PreferenceType?) throws(JarvisError) -> PreferenceValue {
        guard let type, !type.isContainer else {
            let json: JSONValue
            do {
                json = try JSONParser.parse(text)
            } catch {
                throw JarvisError(.typeMismatch, "the value is not JSON (--type json): \(error.description)")
            }
            return try PreferenceValue(json: json)
        }
        return try ValueReading.value(text, as: type)
    }

    /// A value as `jarvis get` prints it: scalars plain, dictionaries and arrays as indented
    /// plain JSON (a real keeps its `.0`, dates and data shown as such, never the wire's
    /// `$real`/`$date`/`$data`), escaped for the terminal (the JSON's own line breaks stay).
    /// The inspector and the panel format values the same way (``ValueFormat``).
    static func full(_ value: PreferenceValue) -> String {
        switch value {
        case .string(let text): return Terminal.escaped(text)
        case .data(let data): return data.base64EncodedString()
        default: return Terminal.escapedLines(ValueFormat.full(value, limit: .max))
        }
    }

    /// A short preview of a value for one line, escaped for the terminal.
    static func short(_ value: PreferenceValue, limit: Int) -> String {
        Terminal.escaped(ValueFormat.preview(value, limit: limit))
    }

    /// What a listing shows for an item: its value, its mask, or that it is unset with the
    /// default that applies; escaped for the terminal.
    static func preview(_ item: PreferenceItem, limit: Int) -> String {
        Terminal.escaped(InspectorState.preview(item, limit: limit))
    }
}
