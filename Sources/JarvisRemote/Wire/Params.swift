import JarvisCore

/// Typed access to a request's params, with errors that name the param and what it must be.
///
/// Unknown params are refused rather than ignored: a misspelt `expectedRevision` must not
/// silently turn a guarded write into an unguarded one.
package struct Params {
    private let object: JSONObject
    private let method: String

    /// Reads the params of a request for `method`, refusing any name not in `allowed`.
    package init(_ object: JSONObject, method: AgentMethod, allowed: Set<String>) throws(RPCError) {
        try self.init(object, method: method.rawValue, allowed: allowed)
    }

    private init(_ object: JSONObject, method: String, allowed: Set<String>) throws(RPCError) {
        for (key, _) in object where !allowed.contains(key) {
            let list = allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")
            throw .invalidParams("\(method) has no param '\(key)' (its params: \(list))")
        }
        self.object = object
        self.method = method
    }

    package func string(_ name: String) throws(RPCError) -> String {
        guard let value = try optionalString(name) else {
            throw .invalidParams("\(method) needs the param '\(name)' (a string)")
        }
        return value
    }

    package func optionalString(_ name: String) throws(RPCError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .invalidParams("param '\(name)' of \(method) must be a string")
        }
    }

    package func bool(_ name: String, default fallback: Bool = false) throws(RPCError) -> Bool {
        switch object[name] {
        case nil, .null?: return fallback
        case .bool(let value)?: return value
        default: throw .invalidParams("param '\(name)' of \(method) must be true or false")
        }
    }

    package func optionalInt(_ name: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let number)?:
            guard let value = number.int64Value, range.contains(Int(value)) else {
                throw .invalidParams(
                    "param '\(name)' of \(method) must be a whole number from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return Int(value)
        default: throw .invalidParams("param '\(name)' of \(method) must be a number")
        }
    }

    package func value(_ name: String) -> JSONValue? {
        object[name]
    }

    package func type(_ name: String) throws(RPCError) -> PreferenceType? {
        guard let text = try optionalString(name) else { return nil }
        guard let type = PreferenceType(rawValue: text) else {
            throw .invalidParams(
                "param '\(name)' of \(method) must be one of \(PreferenceType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return type
    }
}
