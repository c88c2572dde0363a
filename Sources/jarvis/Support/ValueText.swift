import Foundation
import JarvisCore

/// Reading values typed on the command line and printing values for people.
enum ValueText {
    /// The type flags of `jarvis set`, in the spirit of `defaults write`.
    static let typeFlags: [(flag: String, type: PreferenceType?)] = [
        ("--string", .string), ("--int", .integer), ("--real", .real), ("--bool", .boolean),
        ("--date", .date), ("--data", .data), ("--json", nil),
    ]

    /// The names `--type` takes: a type flag without its dashes.
    static let typeNames = "string, int, real, bool, date, data or json"

    /// The type `--type NAME` names: `.some(nil)` for `json` (the wire encoding), nil when
    /// `name` is no type.
    static func type(named name: String) -> PreferenceType?? {
        typeFlags.first(where: { $0.flag == "--" + name }).map(\.type)
    }

    /// Parses `text` as the type a flag asked for; `nil` type means JSON in the wire encoding.
    static func parse(_ text: String, as type: PreferenceType?) throws(JarvisError) -> PreferenceValue {
        switch type {
        case .string?:
            return .string(text)
        case .integer?:
            guard let value = PreferenceValue.integer(decimal: text) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not a whole number (--int)")
            }
            return value
        case .real?:
            let lowered = text.lowercased()
            let special: [String: Double] = [
                "nan": .nan, "inf": .infinity, "infinity": .infinity, "-inf": -.infinity, "-infinity": -.infinity,
            ]
            if let value = special[lowered] { return .real(value) }
            // The literal decides, so `1e400` stays 1e400 instead of becoming infinity.
            if let value = PreferenceValue.real(literal: text) { return value }
            guard let value = Double(text), value.isFinite else {
                throw JarvisError(.typeMismatch, "'\(text)' is not a number (--real)")
            }
            return .real(value)
        case .boolean?:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default: throw JarvisError(.typeMismatch, "'\(text)' is not a boolean (--bool takes true or false)")
            }
        case .date?:
            guard let date = DateText.parse(text) else {
                throw JarvisError(
                    .typeMismatch, "'\(text)' is not an ISO 8601 date such as 2024-01-15T10:00:00Z (--date)")
            }
            return .date(date)
        case .data?:
            guard let data = Data(base64Encoded: text) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not base64 (--data)")
            }
            return .data(data)
        case .array?, .dictionary?, nil:
            let json: JSONValue
            do {
                json = try JSONParser.parse(text)
            } catch {
                throw JarvisError(.typeMismatch, "the value is not JSON (--json): \(error.description)")
            }
            return try PreferenceValue(json: json)
        }
    }

    /// A value as `jarvis get` prints it: scalars plain, containers as pretty JSON, control
    /// characters escaped for the terminal (the pretty JSON's own line breaks stay).
    static func full(_ value: PreferenceValue) -> String {
        switch value {
        case .string(let text): return Terminal.escaped(text)
        case .integer, .boolean: return value.preview(limit: .max)
        case .real(let number): return String(number)
        case .date(let date): return DateText.format(date)
        case .data(let data): return data.base64EncodedString()
        case .array, .dictionary:
            // The writer escapes C0 inside strings but leaves DEL and C1 raw: escape per line.
            return Terminal.escapedLines(JSONWriter.string(value.json, pretty: true))
        case .bigNumber(let number): return number.literal
        }
    }

    /// A short preview of a value for one line, escaped for the terminal.
    static func short(_ value: PreferenceValue, limit: Int) -> String {
        Terminal.escaped(value.preview(limit: limit))
    }

    /// What a listing shows for an item's value, escaped for the terminal.
    static func preview(_ item: PreferenceItem, limit: Int) -> String {
        Terminal.escaped(rawPreview(item, limit: limit))
    }

    private static func rawPreview(_ item: PreferenceItem, limit: Int) -> String {
        if let mask = item.mask {
            return
                "•••••• (\(mask.length) \(item.type == .string ? "chars" : "bytes"), fingerprint \(mask.fingerprint))"
        }
        guard let value = item.value else { return "" }
        switch value {
        case .array, .dictionary:
            let text = JSONWriter.string(value.json)
            return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
        default:
            return value.preview(limit: limit)
        }
    }
}
