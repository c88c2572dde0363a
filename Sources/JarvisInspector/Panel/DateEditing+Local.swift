import Foundation
import JarvisCore

extension DateEditing {
    /// The date as a clock in `zone` shows it, to the second, as an HTML `datetime-local`
    /// field takes it: `2024-01-15T10:00:05`, with milliseconds (`.250`) when the date has a
    /// fraction of a second; nil for a year outside 1–9999, which such a field cannot hold.
    public static func localText(_ date: Date, in zone: TimeZone) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second], from: date)
        guard parts.era == 1, let year = parts.year, (1...9999).contains(year), let month = parts.month,
            let day = parts.day, let hour = parts.hour, let minute = parts.minute, let second = parts.second,
            let whole = calendar.date(from: parts)
        else { return nil }
        func digits(_ number: Int, _ count: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        var text =
            "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))"
        let milliseconds = min(999, Int((date.timeIntervalSince(whole) * 1000).rounded()))
        if milliseconds > 0 { text += "." + digits(milliseconds, 3) }
        return text
    }

    /// The instant a `datetime-local` text names when read in `zone`:
    /// `yyyy-MM-ddTHH:mm`, with optional `:ss` and `.fff` (a space may stand for the `T`);
    /// nil for anything else or a day that does not exist.
    public static func date(local text: String, in zone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "T")
        let halves = trimmed.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2, (2...3).contains(time.count),
            time[0].count == 2, time[1].count == 2
        else { return nil }
        func number(_ part: Substring) -> Int? { part.allSatisfy(\.isASCII) ? Int(part) : nil }
        guard let year = number(day[0]), let month = number(day[1]), let dayNumber = number(day[2]),
            let hour = number(time[0]), let minute = number(time[1])
        else { return nil }
        var second = 0
        var fraction = 0.0
        if time.count == 3 {
            let pieces = time[2].split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), pieces[0].count == 2, let whole = number(pieces[0]) else { return nil }
            second = whole
            if pieces.count == 2 {
                guard (1...9).contains(pieces[1].count), let digits = number(pieces[1]) else { return nil }
                fraction = Double(digits) / pow(10, Double(pieces[1].count))
            }
        }
        guard year >= 1, (1...12).contains(month), (1...31).contains(dayNumber), (0...23).contains(hour),
            (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = DateComponents(
            calendar: calendar, timeZone: zone, year: year, month: month, day: dayNumber, hour: hour, minute: minute,
            second: second)
        // `isValidDate` refuses 31 April instead of rolling it into May.
        guard parts.isValidDate, let date = calendar.date(from: parts) else { return nil }
        return date.addingTimeInterval(fraction)
    }

    /// The editor text (ISO 8601 in UTC, what ``ValueDraft/value(from:)`` reads) for what a
    /// date-and-time field holds, read in the time zone `zone` names. When the field still
    /// shows `previous` (to the millisecond), `previous` is kept exactly.
    /// - Throws: ``JarvisError`` `.typeMismatch` for text that names no date and time, or a
    ///   time zone that does not exist.
    public static func editText(local text: String, zone identifier: String, previous: String? = nil)
        throws(JarvisError) -> String
    {
        let zone = try self.zone(identifier)
        guard let date = date(local: text, in: zone) else {
            throw JarvisError(.typeMismatch, "choose a date and a time, e.g. 2024-01-15 10:00:05")
        }
        if let previous, let earlier = self.date(from: previous), let shown = localText(earlier, in: zone),
            self.date(local: shown, in: zone) == date
        {
            return previous
        }
        return self.text(date)
    }

    /// What a date-and-time field's label says instead of ``ValueDraft/hint``'s ISO 8601.
    public static let fieldHint = "date: the date and time to the second, read in the time zone below"

    /// The time zone an identifier names (`Europe/Berlin`, `UTC`).
    /// - Throws: ``JarvisError`` `.typeMismatch` for an identifier that names none.
    public static func zone(_ identifier: String) throws(JarvisError) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            throw JarvisError(.typeMismatch, "there is no time zone '\(identifier)'; choose one from the list")
        }
        return zone
    }
}
