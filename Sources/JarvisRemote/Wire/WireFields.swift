import JarvisCore

/// Typed access to the members of one wire object, with errors that name the member and what
/// it must be: the one reader for both directions.
///
/// - The agent reads a request's params (``init(params:method:allowed:)``): a wrong member
///   is `invalidParams` (`-32602`) for the client to fix, and unknown params are refused
///   rather than ignored, so a misspelt `expectedRevision` never silently turns a guarded
///   write into an unguarded one.
/// - A client reads an agent's answer (``init(_:_:)``): a wrong member is `storage`, so a
///   broken agent is reported instead of crashing or being misread; members a later minor
///   version added are ignored.
package struct WireFields<Failure: Error> {
    /// The object read.
    package let object: JSONObject
    /// The error for member `name`, which is missing (or null) or not `kind`.
    private let failure: (_ name: String, _ kind: String, _ missing: Bool) -> Failure

    private init(_ object: JSONObject, failure: @escaping (String, String, Bool) -> Failure) {
        self.object = object
        self.failure = failure
    }

    /// The member `name`, as sent.
    package subscript(name: String) -> JSONValue? { object[name] }

    /// A string member that must be there.
    package func string(_ name: String) throws(Failure) -> String {
        guard let value = try optionalString(name) else { throw problem(name, "a string") }
        return value
    }

    /// A string member; nil when absent or null.
    package func optionalString(_ name: String) throws(Failure) -> String? {
        try optional(name, "a string", \.stringValue)
    }

    /// A boolean member that must be there.
    package func bool(_ name: String) throws(Failure) -> Bool {
        guard let value = try optionalBool(name) else { throw problem(name, "true or false") }
        return value
    }

    /// A boolean member; nil when absent or null.
    package func optionalBool(_ name: String) throws(Failure) -> Bool? {
        try optional(name, "true or false", \.boolValue)
    }

    /// A member as `take` reads it; nil when absent or null, the member's problem (it must be
    /// `kind`) when `take` cannot read it.
    private func optional<T>(_ name: String, _ kind: String, _ take: (JSONValue) -> T?) throws(Failure) -> T? {
        switch object[name] {
        case nil, .null?: return nil
        case let value?:
            guard let read = take(value) else { throw problem(name, kind) }
            return read
        }
    }

    /// A whole-number member that must be there.
    package func int64(_ name: String) throws(Failure) -> Int64 {
        guard let value = object[name]?.int64Value else { throw problem(name, "a whole number") }
        return value
    }

    /// A whole-number member within `range`; nil when absent or null.
    package func optionalInt(_ name: String, in range: ClosedRange<Int>) throws(Failure) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let number)?:
            // `Int(exactly:)`: where `Int` has 32 bits (watchOS), a larger number is refused, not a trap.
            guard let value = number.int64Value.flatMap({ Int(exactly: $0) }), range.contains(value) else {
                throw problem(name, "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        default: throw problem(name, "a number")
        }
    }

    /// An array member that must be there.
    package func array(_ name: String) throws(Failure) -> [JSONValue] {
        guard let values = object[name]?.arrayValue else { throw problem(name, "an array") }
        return values
    }

    /// Every element of the array `name`, read by `read`.
    package func list<T>(_ name: String, _ read: (JSONValue) throws(Failure) -> T) throws(Failure) -> [T] {
        var out: [T] = []
        for element in try array(name) { out.append(try read(element)) }
        return out
    }

    /// A preference type named by a string member; nil when absent or null.
    package func type(_ name: String) throws(Failure) -> PreferenceType? {
        guard let text = try optionalString(name) else { return nil }
        guard let type = PreferenceType(rawValue: text) else {
            throw problem(name, "one of \(PreferenceType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }

    private func problem(_ name: String, _ kind: String) -> Failure {
        let missing: Bool
        switch object[name] {
        case nil, .null?: missing = true
        default: missing = false
        }
        return failure(name, kind, missing)
    }
}

extension WireFields where Failure == RPCError {
    /// Reads the params of a request for `method`, refusing any name not in `allowed`.
    package init(params object: JSONObject, method: AgentMethod, allowed: Set<String>) throws(RPCError) {
        let method = method.rawValue
        for (key, _) in object where !allowed.contains(key) {
            let list = allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")
            throw .invalidParams("\(method) has no param '\(key.prefix(100))' (its params: \(list))")
        }
        self.init(object) { name, kind, missing in
            .invalidParams(
                missing
                    ? "\(method) needs the param '\(name)' (\(kind))" : "param '\(name)' of \(method) must be \(kind)")
        }
    }
}

extension WireFields where Failure == JarvisError {
    /// Reads `json`, which an agent sent as `message` (such as "a hello answer").
    /// - Throws: `.storage` when `json` is not an object.
    package init(_ json: JSONValue, _ message: String) throws(JarvisError) {
        guard case .object(let object) = json else {
            throw JarvisError(.storage, "the agent sent \(message) that is not a JSON object")
        }
        self.init(object) { name, kind, _ in
            JarvisError(.storage, "the agent sent \(message) whose '\(name)' is missing or not \(kind)")
        }
    }
}
