/// One key a host declares: where it lives, its type, its default, what it means and which
/// values it accepts.
///
/// Declaring keys is optional. With a catalog, listings show the default beside the stored
/// value and list declared keys that are not stored yet, and `set` refuses a value of the
/// wrong type or outside the allowed values.
///
/// ```swift
/// KeyDefinition("theme", in: "com.example.app", type: .string, default: "system",
///               description: "Colour scheme", allowedValues: ["light", "dark", "system"])
/// KeyDefinition(matching: "workout_*", in: "com.example.cloud", type: .dictionary)
/// ```
public struct KeyDefinition: Sendable, Hashable {
    /// The key's name, or a glob every matching key follows.
    public enum Name: Sendable, Hashable {
        /// Exactly this key; listed as unset when nothing is stored.
        case exact(String)
        /// Every key matching the pattern; never listed when absent (there is no name to list).
        case pattern(GlobPattern)
    }

    /// Which keys this describes.
    public var name: Name
    /// The scanner id, e.g. `defaults` or `files`; nil (the default) applies the definition in
    /// every scanner that has a container matching ``container``. The core names no scanner:
    /// the ids belong to the scanners.
    public var scanner: String?
    /// The containers (suite, file) it applies in; a plain name matches only itself.
    public var container: GlobPattern
    /// The type every value must have.
    public var type: PreferenceType
    /// What applies while nothing is stored; nil when the host has none.
    public var defaultValue: PreferenceValue?
    /// What the key means, for people reading a listing.
    public var description: String?
    /// The only values accepted, when the key is an enumeration.
    public var allowedValues: [PreferenceValue]?
    /// The accepted range, for `integer` and `real` keys.
    public var range: ClosedRange<Double>?

    /// Declares one key by name.
    public init(
        _ key: String,
        in container: GlobPattern,
        scanner: String? = nil,
        type: PreferenceType,
        default defaultValue: PreferenceValue? = nil,
        description: String? = nil,
        allowedValues: [PreferenceValue]? = nil,
        range: ClosedRange<Double>? = nil
    ) {
        self.init(
            name: .exact(key), container: container, scanner: scanner, type: type, defaultValue: defaultValue,
            description: description, allowedValues: allowedValues, range: range)
    }

    /// Declares every key matching a pattern.
    public init(
        matching pattern: GlobPattern,
        in container: GlobPattern,
        scanner: String? = nil,
        type: PreferenceType,
        default defaultValue: PreferenceValue? = nil,
        description: String? = nil,
        allowedValues: [PreferenceValue]? = nil,
        range: ClosedRange<Double>? = nil
    ) {
        self.init(
            name: .pattern(pattern), container: container, scanner: scanner, type: type, defaultValue: defaultValue,
            description: description, allowedValues: allowedValues, range: range)
    }

    /// Declares a key with every field spelt out.
    public init(
        name: Name,
        container: GlobPattern,
        scanner: String?,
        type: PreferenceType,
        defaultValue: PreferenceValue?,
        description: String?,
        allowedValues: [PreferenceValue]?,
        range: ClosedRange<Double>?
    ) {
        self.name = name
        self.container = container
        self.scanner = scanner
        self.type = type
        self.defaultValue = defaultValue
        self.description = description
        self.allowedValues = allowedValues
        self.range = range
    }

    /// Whether this definition covers the address.
    public func matches(_ address: PreferenceAddress) -> Bool {
        guard scanner.map({ $0 == address.scanner }) ?? true, container.matches(address.container) else {
            return false
        }
        switch name {
        case .exact(let key): return key == address.key
        case .pattern(let pattern): return pattern.matches(address.key)
        }
    }

    /// Checks a value against the type, the allowed values and the range.
    /// - Throws: ``JarvisError`` `.typeMismatch` saying what the key accepts.
    public func check(_ value: PreferenceValue, key: String) throws(JarvisError) {
        guard value.type == type else {
            throw JarvisError(
                .typeMismatch,
                "'\(key)' is declared as \(type) in the host's key catalog; got \(value.type) (send type \"\(type)\")")
        }
        if let allowedValues, !allowedValues.contains(value) {
            let list = allowedValues.map { $0.preview(limit: 30) }.joined(separator: ", ")
            throw JarvisError(.typeMismatch, "'\(key)' accepts only: \(list); got \(value.preview(limit: 30))")
        }
        if let range {
            let number: Double?
            switch value {
            case .integer(let integer): number = Double(integer)
            case .real(let real): number = real
            // Beyond Int64 or Double: as a double it is huge (or infinite), so a range refuses it.
            case .bigNumber(let big): number = Double(big.literal) ?? .infinity
            default: number = nil
            }
            if let number, !range.contains(number) {
                throw JarvisError(
                    .typeMismatch,
                    "'\(key)' accepts \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)); got \(value.preview(limit: 30))"
                )
            }
        }
    }

    /// The note items carry for this definition.
    func note(isUnset: Bool) -> CatalogNote {
        CatalogNote(
            defaultValue: defaultValue, description: description, allowedValues: allowedValues, range: range,
            isUnset: isUnset)
    }

    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
