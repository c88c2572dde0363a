import Foundation

/// Values the wire encoding cannot spell exactly, served with their stored bytes and a problem
/// instead of failing the listing they sit in (docs/PROTOCOL.md, "Values the wire cannot spell").
///
/// A property list can hold a date of NaN, ±infinity or 10^300 seconds from 2001-01-01, and a
/// real NaN with any sign and payload: no ISO 8601 text, JSON number or `"NaN"` reads back as
/// those bits. Such a value is served as
/// `{"$unrepresentable":"date","$bytes":"f/gAAAAAAAA=","$problem":"…"}`: its type, its 8 bytes
/// as a binary property list stores them (a big-endian IEEE 754 double), and why. Reading that
/// object gives back exactly the stored value, so writing it, or writing the container because
/// another key changed, keeps its bytes.
extension PreferenceValue {
    /// Why the wire cannot carry this scalar exactly; nil when it can (and for containers:
    /// their members answer for themselves).
    public var unrepresentableProblem: String? {
        switch self {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            guard !Self.isSpellable(date: seconds) else { return nil }
            let distance =
                seconds.isNaN
                ? "NaN seconds from 2001-01-01, which is no moment"
                : seconds.isInfinite
                    ? "\(seconds < 0 ? "minus " : "")infinitely many seconds from 2001-01-01, which is no moment"
                    : "\(seconds) seconds from 2001-01-01, beyond the ±\(Int64(DateText.maxReference)) seconds (about 31 million years) a date is written within"
            return "a date of \(distance); shown as its stored bytes, kept as they are"
        case .real(let number):
            guard !Self.isSpellable(real: number) else { return nil }
            return
                "a NaN whose bits (\(Self.hex(number.bitPattern))) differ from the NaN the wire writes (\(Self.hex(Double.nan.bitPattern))); shown as its stored bytes, kept as they are"
        default:
            return nil
        }
    }

    /// The value as people read it where it cannot be spelled: its type and why, in angle
    /// brackets as a preview shows data (`<date: NaN seconds from 2001-01-01, …>`); nil when
    /// ``unrepresentableProblem`` is.
    public var unrepresentableText: String? {
        unrepresentableProblem.map { "<unrepresentable \(type): \($0)>" }
    }

    /// Whether a date of `seconds` from 2001-01-01 has an exact wire spelling: ISO 8601 text,
    /// with `$reference` seconds when no text is exact.
    static func isSpellable(date seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) < DateText.maxReference
    }

    /// Whether a real reads back from the wire with the same bits: every one but a NaN of
    /// another sign or payload than the one `{"$real":"NaN"}` reads as.
    static func isSpellable(real number: Double) -> Bool {
        !number.isNaN || number.bitPattern == Double.nan.bitPattern
    }

    /// The wire object of an unspellable scalar; nil for every other value.
    var unrepresentableJSON: JSONValue? {
        guard let problem = unrepresentableProblem else { return nil }
        let bits: UInt64
        switch self {
        case .date(let date): bits = date.timeIntervalSinceReferenceDate.bitPattern
        case .real(let number): bits = number.bitPattern
        default: return nil
        }
        let bytes = Data((0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) })
        return .object([
            "$unrepresentable": .string(type.rawValue), "$bytes": .string(bytes.base64EncodedString()),
            "$problem": .string(problem),
        ])
    }

    /// Reads `{"$unrepresentable": TYPE, "$bytes": BASE64}` (a `$problem` is only for people and
    /// is not read): the date or real those 8 big-endian bytes store.
    /// - Throws: ``JarvisError`` `.typeMismatch` for another type or bytes that are not 8.
    static func unrepresentable(_ object: JSONObject, place: String) throws(JarvisError) -> PreferenceValue {
        guard let text = object["$bytes"]?.stringValue, let bytes = Data(base64Encoded: text), bytes.count == 8 else {
            throw JarvisError(
                .typeMismatch,
                "$bytes\(place) must be the base64 of the value's 8 stored bytes (a big-endian IEEE 754 double)")
        }
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch object["$unrepresentable"]?.stringValue {
        case "date"?: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        case "real"?: return .real(Double(bitPattern: bits))
        default:
            throw JarvisError(.typeMismatch, "$unrepresentable\(place) must be \"date\" or \"real\"")
        }
    }

    private static func hex(_ bits: UInt64) -> String {
        let digits = String(bits, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
