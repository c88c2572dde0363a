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
/// Unsigned integers above `Int64.max` (which UserDefaults stores for a `UInt64`) become a
/// ``BigNumber`` integer with their exact digits, and are written back as a `UInt64`.
enum PropertyListValue {
    /// A converted value, and whether it is exactly what was stored.
    struct Decoded {
        var value: PreferenceValue
        var isExact: Bool
    }

    /// Converts a property-list object; `path` names it in errors (`key`, `key[2].name`).
    /// - Throws: ``JarvisError`` `.typeMismatch` for objects a property list cannot hold.
    static func decode(_ object: Any, path: String) throws(JarvisError) -> Decoded {
        do {
            return try convert(object)
        } catch {
            throw error.jarvisError(at: path)
        }
    }

    /// Why an object could not be converted, and where below the top it sits. The path is
    /// assembled only when something fails, so a large suite costs no string building.
    private struct Failure: Error {
        enum Reason {
            case null
            case unsupported(String)
            case nonStringKey(String)
            case tooDeep
        }

        var reason: Reason
        var components: [String] = []

        func inside(_ component: String) -> Failure {
            var copy = self
            copy.components.insert(component, at: 0)
            return copy
        }

        func jarvisError(at root: String) -> JarvisError {
            var path = root
            for component in components {
                path += component.hasPrefix("[") || path.isEmpty ? component : "." + component
            }
            switch reason {
            case .null:
                return JarvisError(.typeMismatch, "'\(path)' holds no value (null), which a property list cannot store")
            case .unsupported(let type):
                return JarvisError(
                    .typeMismatch,
                    "'\(path)' holds a \(type), which is not a property-list type (string, number, boolean, date, data, array, dictionary)"
                )
            case .nonStringKey(let key):
                return JarvisError(
                    .typeMismatch,
                    "'\(path)' has a key that is not a string (\(key)); property lists allow only string keys")
            case .tooDeep:
                return JarvisError(
                    .storage,
                    "'\(path)' nests arrays and dictionaries deeper than \(PreferenceValue.maxDepth) levels, which Jarvis does not serve"
                )
            }
        }
    }

    // The common kinds are tried first; `Optional` (which swift-corelibs-foundation wraps
    // `persistentDomain` values in) only when nothing else matched.
    private static func convert(_ object: Any, depth: Int = 0) throws(Failure) -> Decoded {
        if depth >= PreferenceValue.maxDepth, object is [Any] || object is [AnyHashable: Any] {
            throw Failure(reason: .tooDeep)
        }
        switch object {
        case let string as String:
            return Decoded(value: .string(string), isExact: true)
        case let number as NSNumber:
            return decode(number)
        case let date as Date:
            return Decoded(value: .date(date), isExact: true)
        case let data as Data:
            return Decoded(value: .data(data), isExact: true)
        case let array as [Any]:
            var values: [PreferenceValue] = []
            values.reserveCapacity(array.count)
            var isExact = true
            for (index, element) in array.enumerated() {
                let decoded: Decoded
                do {
                    decoded = try convert(element, depth: depth + 1)
                } catch {
                    throw error.inside("[\(index)]")
                }
                values.append(decoded.value)
                isExact = isExact && decoded.isExact
            }
            return Decoded(value: .array(values), isExact: isExact)
        case let dictionary as [String: Any]:
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(dictionary.count)
            var isExact = true
            for (key, element) in dictionary {
                let decoded = try convert(element, key: key, depth: depth + 1)
                values[key] = decoded.value
                isExact = isExact && decoded.isExact
            }
            return Decoded(value: .dictionary(values), isExact: isExact)
        case let dictionary as [AnyHashable: Any]:
            // swift-corelibs-foundation hands nested dictionaries out with `AnyHashable` keys.
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(dictionary.count)
            var isExact = true
            for (key, element) in dictionary {
                guard let key = key.base as? String else { throw Failure(reason: .nonStringKey("\(key)")) }
                let decoded = try convert(element, key: key, depth: depth + 1)
                values[key] = decoded.value
                isExact = isExact && decoded.isExact
            }
            return Decoded(value: .dictionary(values), isExact: isExact)
        default:
            if let optional = object as? any OptionalObject {
                guard let wrapped = optional.wrappedObject else { throw Failure(reason: .null) }
                return try convert(wrapped, depth: depth)
            }
            throw Failure(reason: .unsupported("\(type(of: object))"))
        }
    }

    private static func convert(_ element: Any, key: String, depth: Int) throws(Failure) -> Decoded {
        do {
            return try convert(element, depth: depth)
        } catch {
            throw error.inside(key)
        }
    }

    /// The Foundation object to store for a value: `NSNumber`s pinned to the value's kind, so
    /// a real `1.0` is written as a real and a boolean as a boolean.
    /// - Throws: ``JarvisError`` `.typeMismatch` for a big number a property list cannot hold
    ///   (an integer outside `Int64.min...UInt64.max`, a real beyond `Double`).
    static func encode(_ value: PreferenceValue, path: String = "") throws(JarvisError) -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .boolean(let boolean): return NSNumber(value: boolean)
        case .date(let date): return date
        case .data(let data): return data
        case .array(let values):
            var objects: [Any] = []
            objects.reserveCapacity(values.count)
            for (index, element) in values.enumerated() {
                objects.append(try encode(element, path: path + "[\(index)]"))
            }
            return objects
        case .dictionary(let values):
            var objects: [String: Any] = [:]
            objects.reserveCapacity(values.count)
            for (key, element) in values {
                objects[key] = try encode(element, path: path.isEmpty ? key : path + "." + key)
            }
            return objects
        case .bigNumber(let number):
            if let unsigned = number.uint64Value { return NSNumber(value: unsigned) }
            throw JarvisError(.typeMismatch, number.propertyListRefusal(at: path))
        }
    }

    private static func decode(_ number: NSNumber) -> Decoded {
        // The first character of the encoding is enough, and reading it allocates nothing.
        let objCType = UInt8(bitPattern: number.objCType.pointee)
        #if canImport(Darwin)
            if CFGetTypeID(number as CFTypeRef) == CFBooleanGetTypeID() {
                return Decoded(value: .boolean(number.boolValue), isExact: true)
            }
            if CFNumberIsFloatType(number as CFNumber) {
                return Decoded(value: .real(number.doubleValue), isExact: true)
            }
        #else
            switch objCType {
            case UInt8(ascii: "c"), UInt8(ascii: "B"): return Decoded(value: .boolean(number.boolValue), isExact: true)
            case UInt8(ascii: "f"), UInt8(ascii: "d"): return Decoded(value: .real(number.doubleValue), isExact: true)
            default: break
            }
        #endif
        if objCType == UInt8(ascii: "Q"), number.uint64Value > UInt64(Int64.max),
            let big = BigNumber(integer: String(number.uint64Value))
        {
            return Decoded(value: .bigNumber(big), isExact: true)
        }
        return Decoded(value: .integer(number.int64Value), isExact: true)
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
