/// A `Duration` in the units the system calls and reports take: whole milliseconds for `poll`,
/// whole nanoseconds for Dispatch, seconds as a `Double` for Foundation and for printing.
///
/// Every face and the agent convert time through these, so none of them drops the seconds of
/// a long duration, the fraction of a short one, or traps on one too long for the unit.
extension Duration {
    /// The duration in seconds, fraction included (as closely as a `Double` holds it).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration as a person reads it: whole seconds as `15 s`, other times over a second as
    /// `1.5 s`, shorter ones as `500 ms` (rounded up to the millisecond, so never `0`).
    public var spoken: String {
        let milliseconds = wholeMilliseconds(rounded: .up)
        // Past what a millisecond count holds (millions of years), the seconds alone.
        guard milliseconds < .max else { return "\(inSeconds) s" }
        if milliseconds < 1000 { return "\(max(milliseconds, 1)) ms" }
        let (whole, part) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        guard part > 0 else { return "\(whole) s" }
        var fraction = String(part + 1000).dropFirst()
        while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
        return "\(whole).\(fraction) s"
    }

    /// What every answer says of storage that did not answer within this duration.
    package var silence: String {
        "did not answer within \(spoken) (a keyring waiting for an unlock, a stopped process?)"
    }

    /// The duration in milliseconds, fraction included (as closely as a `Double` holds it).
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// The duration in whole milliseconds.
    /// - Parameter rule: how a fraction of a millisecond is rounded: `.up` for a timeout that
    ///   must not end early (a short wait never becomes zero), `.towardZero` to report.
    /// - Returns: the count, clamped to `Int64`'s range for a duration beyond it (about 292
    ///   million years).
    public func wholeMilliseconds(rounded rule: FloatingPointRoundingRule) -> Int64 {
        whole(unitsPerSecond: 1_000, rounded: rule)
    }

    /// The duration in whole nanoseconds.
    /// - Parameter rule: how a fraction of a nanosecond is rounded (see ``wholeMilliseconds(rounded:)``).
    /// - Returns: the count, clamped to `Int64`'s range for a duration beyond it (about 292 years).
    public func wholeNanoseconds(rounded rule: FloatingPointRoundingRule) -> Int64 {
        whole(unitsPerSecond: 1_000_000_000, rounded: rule)
    }

    /// The duration counted in units of `1 / unitsPerSecond` seconds, which divides 10^18.
    private func whole(unitsPerSecond: Int64, rounded rule: FloatingPointRoundingRule) -> Int64 {
        let attosecondsPerSecond: Int64 = 1_000_000_000_000_000_000
        let attosecondsPerUnit = attosecondsPerSecond / unitsPerSecond
        var (seconds, attoseconds) = components
        // Both parts carry the duration's sign; make the fraction non-negative, so the count
        // below is the floor and the remainder says how far above it the duration lies.
        if attoseconds < 0 {
            let (earlier, overflow) = seconds.subtractingReportingOverflow(1)
            if overflow { return .min }
            seconds = earlier
            attoseconds += attosecondsPerSecond
        }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        if overflow { return seconds < 0 ? .min : .max }
        let (floor, beyond) = scaled.addingReportingOverflow(attoseconds / attosecondsPerUnit)
        if beyond { return .max }
        let remainder = attoseconds % attosecondsPerUnit
        guard remainder > 0 else { return floor }
        let half = attosecondsPerUnit / 2
        let up: Bool
        switch rule {
        case .down: up = false
        case .up: up = true
        case .towardZero: up = floor < 0
        case .awayFromZero: up = floor >= 0
        case .toNearestOrEven: up = remainder > half || (remainder == half && floor & 1 != 0)
        case .toNearestOrAwayFromZero: up = remainder > half || (remainder == half && floor >= 0)
        @unknown default: up = floor < 0
        }
        guard up else { return floor }
        return floor == .max ? .max : floor + 1
    }
}
