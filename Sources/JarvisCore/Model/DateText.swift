import Foundation

/// ISO 8601 text for dates, written and read without `DateFormatter`, so it is exact,
/// fast and free of locale and thread-safety concerns.
///
/// Output is always UTC (`2024-01-15T10:00:00.250Z`) with as few fractional digits as
/// reproduce the date exactly (none, 3, 6 or 9); `exactText(_:)` says when no text does.
package enum DateText {
    private static let unixToReference: Int64 = 978_307_200

    /// The largest distance from 2001-01-01, in seconds, a date may have on the wire: beyond
    /// it there is no text to write it back as.
    package static let maxReference = 1e15

    /// The date as ISO 8601 in UTC, with the fewest fractional digits that read back exactly,
    /// or millisecond precision when none does.
    package static func format(_ date: Date) -> String {
        exactText(date) ?? text(date, digits: 3)
    }

    /// ISO 8601 text that `parse` turns back into exactly this date, or nil if none with up to
    /// nine fractional digits does (the wire then carries the raw reference seconds too).
    package static func exactText(_ date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite else { return nil }
        for digits in [0, 3, 6, 9] {
            let candidate = text(date, digits: digits)
            if let back = parse(candidate), back.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern {
                return candidate
            }
        }
        return nil
    }

    private static func text(_ date: Date, digits: Int) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, abs(interval) < maxReference else { return "invalid-date" }
        var whole = interval.rounded(.down)
        var fraction = interval - whole
        var scaled: Int64 = 0
        if digits > 0 {
            let scale = pow(10.0, Double(digits))
            scaled = Int64((fraction * scale).rounded())
            if scaled >= Int64(scale) {
                scaled -= Int64(scale)
                whole += 1
            }
        } else if fraction >= 0.5 {
            whole += 1
            fraction = 0
        }
        let unix = Int64(whole) + unixToReference
        let days = floorDiv(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var result = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        result +=
            "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if digits > 0 {
            result += "." + pad(scaled, digits)
        }
        return result + "Z"
    }

    /// Reads `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or `±HH:MM`
    /// (a space may stand for `T`; no zone means UTC). Returns nil for anything else.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ char: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == char else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds: Int64 = 0
        var fractionDigits = ""
        var offset: Int64 = 0
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") else { return nil }
            index += 1
            guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60
            if expect(UInt8(ascii: ":")) {
                guard let second = number(2), second < 61 else { return nil }
                seconds += second
                if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                    let start = index
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                    guard index > start, index - start <= 18 else { return nil }
                    fractionDigits = String(decoding: bytes[start..<index], as: UTF8.self)
                }
            }
            if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
                // UTC
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let zoneHour = number(2) else { return nil }
                _ = expect(UInt8(ascii: ":"))
                guard let zoneMinute = number(2), zoneHour < 24, zoneMinute < 60 else { return nil }
                offset = sign * (zoneHour * 3600 + zoneMinute * 60)
            }
        }
        guard index == bytes.count else { return nil }
        let unix = days(fromCivil: year, month, day) * 86_400 + seconds - offset
        var interval = Double(unix - unixToReference)
        if !fractionDigits.isEmpty, let fraction = Double("0." + fractionDigits) {
            interval += fraction
        }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar.
    // Days since 1970-01-01; also what property-list dates are converted with.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
