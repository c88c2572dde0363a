import Foundation
import JarvisCore

#if canImport(Darwin)
import CoreFoundation
#endif

/// Converts between Foundation property-list objects (`Any`) and ``PreferenceValue``.
///
/// Booleans, integers and reals all arrive as `NSNumber`, so the kind is read from the
/// number itself: `CFBoolean` / `CFNumberIsFloatType` on Darwin, the `objCType` on
/// swift-corelibs-foundation (where a plist `<true/>` is a `Bool` that bridges to type `c`).
///
/// Unsigned integers above `Int64.max` (which UserDefaults stores for a `UInt64`) have no
/// exact ``PreferenceValue``: they are shown as the nearest real and marked inexact, and
/// callers make such entries read-only so Jarvis never writes the rounded value back.
enum PropertyListValue {
    /// A converted value, and whether it is exactly what was stored.
    struct Decoded {
        var value: PreferenceValue
        var isExact: Bool
    }

    /// Converts a property-list object; `path` names it in errors (`key`, `key[2].name`).
    /// - Throws: ``JarvisError`` `.typeMismatch` for objects a property list cannot hold.
    static func decode(_ object: Any, path: String) throws(JarvisError) -> Decoded {
        guard let object = unwrapped(object) else {
            throw JarvisError(.typeMismatch, "'\(path)' holds no value (null), which a property list cannot store")
        }
        switch object {
        case let string as String:
            return Decoded(value: .string(string), isExact: true)
        case let date as Date:
            return Decoded(value: .date(date), isExact: true)
        case let data as Data:
            return Decoded(value: .data(data), isExact: true)
        case let number as NSNumber:
            return decode(number)
        case let array as [Any]:
            var values: [PreferenceValue] = []
            values.reserveCapacity(array.count)
            var isExact = true
            for (index, element) in array.enumerated() {
                let decoded = try decode(element, path: "\(path)[\(index)]")
                values.append(decoded.value)
                isExact = isExact && decoded.isExact
            }
            return Decoded(value: .array(values), isExact: isExact)
        case let dictionary as [String: Any]:
            return try decode(dictionary.map { ($0.key, $0.value) }, path: path)
        case let dictionary as [AnyHashable: Any]:
            // swift-corelibs-foundation hands nested dictionaries out with `AnyHashable` keys.
            var pairs: [(String, Any)] = []
            for (key, value) in dictionary {
                guard let key = key.base as? String else {
                    throw JarvisError(.typeMismatch, "'\(path)' has a key that is not a string (\(key)); property lists allow only string keys")
                }
                pairs.append((key, value))
            }
            return try decode(pairs, path: path)
        default:
            throw JarvisError(
                .typeMismatch,
                "'\(path)' holds a \(type(of: object)), which is not a property-list type (string, number, boolean, date, data, array, dictionary)")
        }
    }

    /// The Foundation object to store for a value: `NSNumber`s pinned to the value's kind, so
    /// a real `1.0` is written as a real and a boolean as a boolean.
    static func encode(_ value: PreferenceValue) -> Any {
        switch value {
        case .string(let string): string
        case .integer(let integer): NSNumber(value: integer)
        case .real(let real): NSNumber(value: real)
        case .boolean(let boolean): NSNumber(value: boolean)
        case .date(let date): date
        case .data(let data): data
        case .array(let values): values.map(encode)
        case .dictionary(let values): values.mapValues(encode)
        }
    }

    private static func decode(_ pairs: [(String, Any)], path: String) throws(JarvisError) -> Decoded {
        var values: [String: PreferenceValue] = [:]
        values.reserveCapacity(pairs.count)
        var isExact = true
        for (key, element) in pairs {
            let decoded = try decode(element, path: path.isEmpty ? key : "\(path).\(key)")
            values[key] = decoded.value
            isExact = isExact && decoded.isExact
        }
        return Decoded(value: .dictionary(values), isExact: isExact)
    }

    private static func decode(_ number: NSNumber) -> Decoded {
        let objCType = String(cString: number.objCType)
        #if canImport(Darwin)
        if CFGetTypeID(number as CFTypeRef) == CFBooleanGetTypeID() {
            return Decoded(value: .boolean(number.boolValue), isExact: true)
        }
        if CFNumberIsFloatType(number as CFNumber) {
            return Decoded(value: .real(number.doubleValue), isExact: true)
        }
        #else
        switch objCType {
        case "c", "B": return Decoded(value: .boolean(number.boolValue), isExact: true)
        case "f", "d": return Decoded(value: .real(number.doubleValue), isExact: true)
        default: break
        }
        #endif
        if objCType == "Q", number.uint64Value > UInt64(Int64.max) {
            return Decoded(value: .real(number.doubleValue), isExact: false)
        }
        return Decoded(value: .integer(number.int64Value), isExact: true)
    }

    /// Looks through `Optional`s: swift-corelibs-foundation wraps values of `persistentDomain`.
    private static func unwrapped(_ object: Any) -> Any? {
        guard let optional = object as? any OptionalObject else { return object }
        return optional.wrappedObject.flatMap(unwrapped)
    }
}

/// Lets an `Any` that holds an `Optional` be opened without reflection.
private protocol OptionalObject {
    var wrappedObject: Any? { get }
}

extension Optional: OptionalObject {
    fileprivate var wrappedObject: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
