import JarvisCore

/// Converts between the JSON in a config file and ``PreferenceValue``.
///
/// JSON has no dates and no binary data, so strings stay strings and a date or data value
/// cannot be stored (the write is refused with a message, never silently turned into text).
/// Integer literals become integers and literals with a fraction or exponent become reals.
/// Numbers beyond `Int64` or `Double` keep their literal (``BigNumber``). A value that
/// cannot be shown exactly — one holding `null` — is shown with `null` as the string
/// `"null"` and is read-only, so writing it back can never change what the file says.
enum JSONFileValue {
    /// The value as Jarvis shows it, and whether it is exact (writable).
    static func preferenceValue(_ json: JSONValue) -> (PreferenceValue, isExact: Bool) {
        switch json {
        case .null:
            return (.string("null"), false)
        case .bool(let flag):
            return (.boolean(flag), true)
        case .string(let text):
            return (.string(text), true)
        case .number(let number):
            // An integer literal too long for `Int64` stays an integer with its exact digits, and
            // a real beyond `Double` keeps its literal; both write back as they were read.
            return (.number(number), true)
        case .array(let elements):
            var exact = true
            let values = elements.map { element -> PreferenceValue in
                let (value, isExact) = preferenceValue(element)
                exact = exact && isExact
                return value
            }
            return (.array(values), exact)
        case .object(let object):
            var exact = true
            var values: [String: PreferenceValue] = [:]
            for (key, element) in object {
                let (value, isExact) = preferenceValue(element)
                exact = exact && isExact
                values[key] = value
            }
            return (.dictionary(values), exact)
        }
    }

    /// The JSON for a value, shaped after `template` (what the file held before): members keep
    /// their order, numbers that did not change keep their literal text (`1.50` stays `1.50`),
    /// and new members are appended in key order.
    /// - Throws: ``JarvisError`` `.typeMismatch` for dates, data and non-finite reals.
    static func json(_ value: PreferenceValue, template: JSONValue?, path: String = "") throws(JarvisError) -> JSONValue
    {
        let place = path.isEmpty ? "" : " at \(path)"
        switch value {
        case .string(let text):
            return .string(text)
        case .boolean(let flag):
            return .bool(flag)
        case .integer(let integer):
            if case .number(let old)? = template, old.isInteger, old.int64Value == integer { return .number(old) }
            return .number(JSONNumber(integer))
        case .real(let real):
            if case .number(let old)? = template, !old.isInteger, old.doubleValue == real { return .number(old) }
            guard let number = JSONNumber(real) else {
                throw JarvisError(.typeMismatch, "JSON has no NaN or infinity\(place); store a finite number")
            }
            return .number(number)
        case .bigNumber(let number):
            return .number(number.json)
        case .date:
            throw JarvisError(
                .typeMismatch,
                "a JSON file has no date type\(place); store the date as an ISO 8601 string (type string)")
        case .data:
            throw JarvisError(
                .typeMismatch, "a JSON file has no binary data\(place); store it as a base64 string (type string)")
        case .array(let elements):
            let old = template?.arrayValue ?? []
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                result.append(
                    try json(element, template: index < old.count ? old[index] : nil, path: path + "/\(index)"))
            }
            return .array(result)
        case .dictionary(let members):
            var result = JSONObject()
            result.reserveCapacity(members.count)
            let old = template?.objectValue ?? JSONObject()
            for (key, oldMember) in old {
                guard let member = members[key] else { continue }
                result[key] = try json(member, template: oldMember, path: path + "/" + key)
            }
            for key in members.keys.sorted() where old[key] == nil {
                if let member = members[key] { result[key] = try json(member, template: nil, path: path + "/" + key) }
            }
            return .object(result)
        }
    }
}
