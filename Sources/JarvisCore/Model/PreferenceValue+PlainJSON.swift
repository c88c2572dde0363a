/// Plain JSON, as config files and `JSONEncoder` write it, without the wire's `$` wrappers.
///
/// Plain JSON has no dates, no data, no non-finite reals and (in the value model) no null, so
/// those are refused with a message naming where they are, rather than silently changed.
extension PreferenceValue {
    /// The value as plain JSON; dictionary keys sorted, so the output is stable.
    /// - Parameter path: where the value sits, for error messages (e.g. a key name).
    /// - Throws: ``JarvisError`` `.typeMismatch` for a date, data or a non-finite real.
    public func plainJSON(path: String = "") throws(JarvisError) -> JSONValue {
        let place = path.isEmpty ? "the value" : "'\(path)'"
        switch self {
        case .string(let text): return .string(text)
        case .integer(let number): return .number(JSONNumber(number))
        case .boolean(let flag): return .bool(flag)
        case .real(let number):
            guard let literal = JSONNumber(number) else {
                throw JarvisError(.typeMismatch, "\(place) is \(number), which JSON cannot hold; send a finite number")
            }
            return .number(literal)
        case .date:
            throw JarvisError(
                .typeMismatch, "\(place) is a date, which plain JSON cannot hold; send it as a string or a number")
        case .data:
            throw JarvisError(
                .typeMismatch, "\(place) is data, which plain JSON cannot hold; send it as a base64 string")
        case .array(let values):
            var elements: [JSONValue] = []
            elements.reserveCapacity(values.count)
            for (index, element) in values.enumerated() {
                elements.append(try element.plainJSON(path: path + "/\(index)"))
            }
            return .array(elements)
        case .dictionary(let values):
            var object = JSONObject()
            object.reserveCapacity(values.count)
            for key in values.keys.sorted() {
                if let element = values[key] { object[key] = try element.plainJSON(path: path + "/" + key) }
            }
            return .object(object)
        case .bigNumber(let number):
            return .number(number.json)
        }
    }

    /// Reads plain JSON: numbers without fraction or exponent are integers, the rest reals;
    /// those beyond `Int64` or `Double` keep their literal (``BigNumber``).
    /// - Throws: ``JarvisError`` `.typeMismatch` for `null`.
    public init(plainJSON json: JSONValue, path: String = "") throws(JarvisError) {
        let place = path.isEmpty ? "the value" : "'\(path)'"
        switch json {
        case .null:
            throw JarvisError(.typeMismatch, "\(place) is null, which a preference value cannot hold")
        case .bool(let flag): self = .boolean(flag)
        case .string(let text): self = .string(text)
        case .number(let number):
            self = .number(number)
        case .array(let elements):
            var values: [PreferenceValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try PreferenceValue(plainJSON: element, path: path + "/\(index)"))
            }
            self = .array(values)
        case .object(let object):
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(object.count)
            for (key, element) in object {
                values[key] = try PreferenceValue(plainJSON: element, path: path + "/" + key)
            }
            self = .dictionary(values)
        }
    }
}
