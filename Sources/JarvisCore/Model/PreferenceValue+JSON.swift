import Foundation

/// The wire encoding of values: plain JSON wherever plain JSON is unambiguous, and a
/// one-key wrapper object where it is not (the convention of MongoDB's Extended JSON):
///
/// | value | JSON |
/// |---|---|
/// | string, boolean | as is |
/// | integer | a number without fraction or exponent: `42`; beyond 64 bits `{"$integer":"12345678901234567890"}` |
/// | real | a number with a fraction: `0.5`; whole or non-finite: `{"$real":1}`, `{"$real":"NaN"}`; beyond `Double`: `{"$real":"1e400"}` |
/// | date | `{"$date":"2024-01-15T10:00:00.250Z"}` (plus `"$reference"` seconds if no text is exact) |
/// | data | `{"$data":"<base64>"}` |
/// | a date or real no text above reads back exactly (a date of NaN) | `{"$unrepresentable":"date","$bytes":"<base64 of 8 bytes>","$problem":"…"}` |
/// | array | an array |
/// | dictionary | an object; `{"$dictionary":{…}}` when one of its keys starts with `$` |
///
/// Whole reals are wrapped because many JSON libraries (JavaScript's among them) read `1.0`
/// as `1`, and the value would come back as an integer. Big numbers are wrapped, with their
/// literal as a string, because those libraries round them to a `Double`; a plain big number
/// literal (`12345678901234567890`, `1e400`) is still accepted on input.
extension PreferenceValue {
    /// The value in the wire encoding.
    public var json: JSONValue {
        switch self {
        case .string(let text):
            return .string(text)
        case .integer(let number):
            return .number(JSONNumber(number))
        case .real(let number):
            if let unrepresentable = unrepresentableJSON { return unrepresentable }
            if number.isFinite, number.rounded() != number, let literal = JSONNumber(number) {
                return .number(literal)
            }
            if let literal = JSONNumber(number) { return .object(["$real": .number(literal)]) }
            return .object(["$real": .string(number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity"))])
        case .boolean(let flag):
            return .bool(flag)
        case .date(let date):
            if let unrepresentable = unrepresentableJSON { return unrepresentable }
            if let text = DateText.exactText(date) { return .object(["$date": .string(text)]) }
            guard let seconds = JSONNumber(date.timeIntervalSinceReferenceDate) else {
                return .object(["$date": .string(DateText.format(date))])
            }
            return .object(["$date": .string(DateText.format(date)), "$reference": .number(seconds)])
        case .data(let data):
            return .object(["$data": .string(data.base64EncodedString())])
        case .array(let values):
            return .array(values.map(\.json))
        case .dictionary(let values):
            var object = JSONObject()
            var needsWrapper = false
            for key in values.keys.sorted() {
                if key.hasPrefix("$") { needsWrapper = true }
                object[key] = values[key]?.json
            }
            return needsWrapper ? .object(["$dictionary": .object(object)]) : .object(object)
        case .bigNumber(let number):
            return .object([number.kind == .integer ? "$integer" : "$real": .string(number.literal)])
        }
    }

    /// Reads a value in the wire encoding, inferring its type.
    /// - Throws: ``JarvisError`` `.typeMismatch` for `null` or a `$`-object that is not one of
    ///   the wrappers.
    public init(json: JSONValue) throws(JarvisError) {
        self = try Self.decode(json, path: "")
    }

    /// Reads a value that must be of `type`, accepting the convenient spellings a person
    /// would type: an ISO 8601 string for a date, base64 for data, any number for a real.
    /// - Throws: ``JarvisError`` `.typeMismatch` naming what was expected and what came.
    public init(json: JSONValue, as type: PreferenceType) throws(JarvisError) {
        switch (type, json) {
        case (.date, .string(let text)):
            guard let date = DateText.parse(text) else {
                throw JarvisError(.typeMismatch, "'\(text)' is not an ISO 8601 date such as 2024-01-15T10:00:00Z")
            }
            self = .date(date)
        case (.data, .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw JarvisError(.typeMismatch, "data must be base64, e.g. aGVsbG8=")
            }
            self = .data(data)
        case (.real, .number(let number)):
            self = Self.realValue(number)
        case (.string, .number(let number)):
            throw JarvisError(
                .typeMismatch, "a string value must be a JSON string; got the number \(number) (quote it)")
        default:
            let value = try Self.decode(json, path: "")
            guard value.type == type else {
                throw JarvisError(
                    .typeMismatch, "expected a value of type \(type), got \(value.type) \(value.preview(limit: 40))")
            }
            self = value
        }
    }

    private static func decode(_ json: JSONValue, path: String) throws(JarvisError) -> PreferenceValue {
        let place = path.isEmpty ? "" : " at \(path)"
        switch json {
        case .null:
            throw JarvisError(
                .typeMismatch,
                "null\(place) is not a storable value (property lists have no null); delete the key instead")
        case .bool(let flag):
            return .boolean(flag)
        case .string(let text):
            return .string(text)
        case .number(let number):
            return .number(number)
        case .array(let elements):
            var values: [PreferenceValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try decode(element, path: path + "/\(index)"))
            }
            return .array(values)
        case .object(let object):
            if let first = object.keys.first, first.hasPrefix("$") {
                return try decodeWrapper(object, place: place, path: path)
            }
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(object.count)
            for (key, element) in object {
                if key.hasPrefix("$") {
                    throw JarvisError(
                        .typeMismatch,
                        "key '\(key)'\(place) starts with '$'; wrap the dictionary as {\"$dictionary\": {…}}")
                }
                values[key] = try decode(element, path: path + "/" + key)
            }
            return .dictionary(values)
        }
    }

    private static func decodeWrapper(_ object: JSONObject, place: String, path: String) throws(JarvisError)
        -> PreferenceValue
    {
        let keys = Set(object.keys)
        if keys == ["$date"] || keys == ["$date", "$reference"] {
            if let raw = object["$reference"] {
                // Only a finite number of seconds a date can be written back as: 1e308,
                // NaN or a string is refused, never served as "invalid-date" or dropped.
                guard case .number = raw, let reference = raw.doubleValue, reference.isFinite,
                    abs(reference) < DateText.maxReference
                else {
                    throw JarvisError(
                        .typeMismatch,
                        "$reference\(place) must be a finite number of seconds since 2001-01-01 within ±\(Int64(DateText.maxReference)); send the date as $date text"
                    )
                }
                return .date(Date(timeIntervalSinceReferenceDate: reference))
            }
            guard let text = object["$date"]?.stringValue, let date = DateText.parse(text) else {
                throw JarvisError(
                    .typeMismatch, "$date\(place) must be an ISO 8601 string such as 2024-01-15T10:00:00Z")
            }
            return .date(date)
        }
        if keys == ["$unrepresentable", "$bytes"] || keys == ["$unrepresentable", "$bytes", "$problem"] {
            return try unrepresentable(object, place: place)
        }
        if keys == ["$data"] {
            guard let text = object["$data"]?.stringValue, let data = Data(base64Encoded: text) else {
                throw JarvisError(.typeMismatch, "$data\(place) must be a base64 string")
            }
            return .data(data)
        }
        if keys == ["$real"] {
            switch object["$real"] {
            case .number(let number)?: return realValue(number)
            case .string("NaN")?: return .real(.nan)
            case .string("Infinity")?: return .real(.infinity)
            case .string("-Infinity")?: return .real(-.infinity)
            case .string(let text)?:
                if let number = JSONNumber(text: text) { return realValue(number) }
            default: break
            }
            throw JarvisError(
                .typeMismatch,
                "$real\(place) must be a number, a number's literal as a string (\"1e400\"), or one of \"NaN\", \"Infinity\", \"-Infinity\""
            )
        }
        if keys == ["$integer"] {
            let text: String?
            switch object["$integer"] {
            case .string(let literal)?: text = literal
            case .number(let number)? where number.isInteger: text = number.text
            default: text = nil
            }
            guard let text, JSONNumber(text: text)?.isInteger == true, let value = integer(decimal: text) else {
                throw JarvisError(
                    .typeMismatch,
                    "$integer\(place) must be an integer's decimal digits as a string, e.g. \"-12345678901234567890\"")
            }
            return value
        }
        if keys == ["$dictionary"], case .object(let inner)? = object["$dictionary"] {
            var values: [String: PreferenceValue] = [:]
            for (key, element) in inner {
                values[key] = try decode(element, path: path + "/" + key)
            }
            return .dictionary(values)
        }
        throw JarvisError(
            .typeMismatch,
            "object\(place) with keys \(object.keys.sorted()) is not a value: '$' objects must be one of $date, $data, $real, $integer, $dictionary, $unrepresentable"
        )
    }

    /// A number read as a real, whatever its spelling: a ``BigNumber`` beyond `Double`'s range.
    private static func realValue(_ number: JSONNumber) -> PreferenceValue {
        if let big = BigNumber(real: number.text) { return .bigNumber(big) }
        return .real(Double(number.text) ?? .nan)
    }
}
