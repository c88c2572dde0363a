/// Converts between a property list's dates (seconds since 2001-01-01 00:00:00 UTC) and the
/// `YYYY-MM-DDThh:mm:ssZ` text XML property lists hold, with proleptic Gregorian arithmetic
/// (``DateText``'s day arithmetic; no calendar, time zone or locale involved).
enum PropertyListDate {
    /// Days from 1970-01-01 to 2001-01-01.
    private static let referenceDay = 11_323

    /// The seconds a `YYYY-MM-DDThh:mm:ssZ` text stands for; nil when it is not one.
    static func seconds(_ text: ArraySlice<UInt8>) -> Double? {
        let digits = Array(text)
        // A year may carry a sign and more digits than four; everything after it is fixed.
        guard digits.count >= 20, digits.last == UInt8(ascii: "Z") else { return nil }
        let tail = digits.count - 16
        var yearText = digits[0..<tail]
        var negative = false
        if let sign = yearText.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            yearText = yearText.dropFirst()
        }
        guard yearText.count >= 4, yearText.count <= 6, let year = number(yearText),
            digits[tail] == UInt8(ascii: "-"), digits[tail + 3] == UInt8(ascii: "-"),
            digits[tail + 6] == UInt8(ascii: "T"), digits[tail + 9] == UInt8(ascii: ":"),
            digits[tail + 12] == UInt8(ascii: ":"),
            let month = number(digits[(tail + 1)..<(tail + 3)]), let day = number(digits[(tail + 4)..<(tail + 6)]),
            let hour = number(digits[(tail + 7)..<(tail + 9)]), let minute = number(digits[(tail + 10)..<(tail + 12)]),
            let second = number(digits[(tail + 13)..<(tail + 15)]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let dayNumber =
            Int(DateText.days(fromCivil: Int64(negative ? -year : year), Int64(month), Int64(day))) - referenceDay
        return Double(dayNumber * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// The text of a date, whole seconds (a fraction is dropped, as Apple's writer drops it);
    /// nil outside the years 0001 to 9999, which the four-digit form cannot hold.
    static func text(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= -63_113_904_000, seconds < 252_423_993_600 else { return nil }
        let whole = Int(seconds.rounded(.down))
        let dayNumber = (whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400) + referenceDay
        let secondOfDay = whole - (dayNumber - referenceDay) * 86_400
        let (year, month, day) = DateText.civil(fromDays: Int64(dayNumber))
        return pad(Int(year), 4) + "-" + pad(Int(month), 2) + "-" + pad(Int(day), 2) + "T" + pad(secondOfDay / 3_600, 2)
            + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
