import Foundation

/// The date editor's arithmetic: a date picker that offers day, hour and minute, a seconds
/// field beside it, and a time zone in which all three are read.
///
/// The stored value is an instant; the time zone only says how the user reads and types it.
/// Fractions of a second the stored value had are kept unless the user changes the seconds.
public enum DateEditing {
    /// The seconds (0–59) of `date` as a clock in `zone` shows them.
    public static func second(of date: Date, in zone: TimeZone) -> Int {
        calendar(zone).component(.second, from: date)
    }

    /// `date` with its seconds set to `second` (clamped to 0–59) in `zone`; the fraction of a
    /// second is dropped, as the user chose a whole second.
    public static func setting(second: Int, of date: Date, in zone: TimeZone) -> Date {
        let whole = minuteStart(of: date, in: zone)
        return whole.addingTimeInterval(TimeInterval(min(59, max(0, second))))
    }

    /// What a minute-precision picker chose (`picked`), with the seconds and fraction of
    /// `previous` kept: changing the hour does not change the seconds.
    public static func merge(picked: Date, keepingSecondsOf previous: Date, in zone: TimeZone) -> Date {
        let seconds = previous.timeIntervalSince(minuteStart(of: previous, in: zone))
        return minuteStart(of: picked, in: zone).addingTimeInterval(seconds)
    }

    /// The date as editor text (ISO 8601 in UTC, what ``ValueDraft/value(from:)`` reads).
    public static func text(_ date: Date) -> String {
        ValueFormat.editText(.date(date))
    }

    /// The date an editor text holds; nil when it holds none.
    public static func date(from text: String) -> Date? {
        if case .date(let date)? = try? ValueDraft.parse(text, as: .date) { return date }
        return nil
    }

    /// The date a date editor starts from: the draft's date, or for a new or empty one the
    /// current minute (a real date the user adjusts, never an empty field that cannot be saved).
    public static func start(_ text: String, now: Date = Date()) -> Date {
        date(from: text) ?? Date(timeIntervalSinceReferenceDate: (now.timeIntervalSinceReferenceDate / 60).rounded(.down) * 60)
    }

    /// A time zone's label: its identifier and its offset from UTC at `date`, e.g.
    /// `Europe/Berlin (UTC+01:00)`.
    public static func label(_ zone: TimeZone, at date: Date) -> String {
        let seconds = zone.secondsFromGMT(for: date)
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        let offset = sign + two(minutes / 60) + ":" + two(minutes % 60)
        return "\(zone.identifier) (UTC\(offset))"
    }

    /// The time zones to offer: this device's first, then UTC, then every other one by name.
    public static func zones(current: TimeZone = .current) -> [String] {
        var seen: Set<String> = [current.identifier, "UTC"]
        var list = [current.identifier]
        if current.identifier != "UTC" { list.append("UTC") }
        for identifier in TimeZone.knownTimeZoneIdentifiers.sorted() where seen.insert(identifier).inserted {
            list.append(identifier)
        }
        return list
    }

    private static func minuteStart(of date: Date, in zone: TimeZone) -> Date {
        let calendar = calendar(zone)
        let parts = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute], from: date)
        return calendar.date(from: parts) ?? date
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
