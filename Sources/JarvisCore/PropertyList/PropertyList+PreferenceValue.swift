import Foundation

extension PropertyList {
    /// The value as Jarvis serves it, and whether it is exactly what is stored: a UID is shown
    /// as `{"CF$UID": n}` (as `plutil` shows it) and is not exact, so it is never written back
    /// changed. Unsigned integers above `Int64.max` become a ``BigNumber`` with their digits.
    package var preferenceValue: (value: PreferenceValue, isExact: Bool) {
        switch self {
        case .string(let text): return (.string(text), true)
        case .integer(let integer): return (.integer(integer), true)
        case .unsigned(let integer):
            guard let big = BigNumber(integer: String(integer)) else {
                return (.integer(Int64(truncatingIfNeeded: integer)), false)
            }
            return (.bigNumber(big), true)
        case .real(let real): return (.real(real), true)
        case .boolean(let boolean): return (.boolean(boolean), true)
        case .date(let seconds): return (.date(Date(timeIntervalSinceReferenceDate: seconds)), true)
        case .data(let bytes): return (.data(Data(bytes)), true)
        case .uid(let uid):
            let number: PreferenceValue =
                uid > UInt64(Int64.max)
                ? BigNumber(integer: String(uid)).map(PreferenceValue.bigNumber) ?? .integer(0)
                : .integer(Int64(uid))
            return (.dictionary(["CF$UID": number]), false)
        case .array(let elements):
            var values: [PreferenceValue] = []
            values.reserveCapacity(elements.count)
            var isExact = true
            for element in elements {
                let converted = element.preferenceValue
                values.append(converted.value)
                isExact = isExact && converted.isExact
            }
            return (.array(values), isExact)
        case .dictionary(let members):
            var values: [String: PreferenceValue] = [:]
            values.reserveCapacity(members.count)
            var isExact = true
            for member in members {
                let converted = member.value.preferenceValue
                values[member.key] = converted.value
                isExact = isExact && converted.isExact
            }
            return (.dictionary(values), isExact)
        }
    }

    /// The property list that stores `value`; dictionary keys in sorted order.
    /// - Throws: ``PropertyListError`` `.unsupported` for a ``BigNumber`` a property list
    ///   cannot hold (an integer outside -2^63 to 2^64-1, a real beyond `Double`), naming where.
    package init(_ value: PreferenceValue, path: String = "") throws(PropertyListError) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .boolean(let boolean): self = .boolean(boolean)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate)
        case .data(let data): self = .data([UInt8](data))
        case .array(let values):
            var elements: [PropertyList] = []
            elements.reserveCapacity(values.count)
            for (index, element) in values.enumerated() {
                elements.append(try PropertyList(element, path: path + "[\(index)]"))
            }
            self = .array(elements)
        case .dictionary(let values):
            var members: [Member] = []
            members.reserveCapacity(values.count)
            for key in values.keys.sorted() {
                guard let element = values[key] else { continue }
                members.append(Member(key, try PropertyList(element, path: path.isEmpty ? key : path + "." + key)))
            }
            self = .dictionary(members)
        case .bigNumber(let number):
            if let unsigned = number.uint64Value {
                self = .integer(unsigned: unsigned)
                return
            }
            throw PropertyListError(.unsupported, number.propertyListRefusal(at: path))
        }
    }
}
