import JarvisCore
import Testing

/// The one conversion of `Duration` every face and the agent use: seconds are never dropped
/// for a long duration, nor the fraction for a short one, and no length traps.
@Suite struct DurationUnitsTests {
    @Test func wholeMillisecondsKeepTheSecondsAndRoundTheFraction() {
        let duration = Duration.seconds(3) + .microseconds(1_500)
        #expect(duration.wholeMilliseconds(rounded: .towardZero) == 3_001)
        #expect(duration.wholeMilliseconds(rounded: .down) == 3_001)
        #expect(duration.wholeMilliseconds(rounded: .up) == 3_002)
        #expect(duration.wholeMilliseconds(rounded: .toNearestOrAwayFromZero) == 3_002)
        #expect(duration.wholeMilliseconds(rounded: .toNearestOrEven) == 3_002)
        #expect((duration + .milliseconds(1)).wholeMilliseconds(rounded: .toNearestOrEven) == 3_002)
        // A fraction of a millisecond alone, as a poll timeout rounds it: never zero.
        #expect(Duration.nanoseconds(1).wholeMilliseconds(rounded: .up) == 1)
        #expect(Duration.nanoseconds(1).wholeMilliseconds(rounded: .towardZero) == 0)
        #expect(Duration.zero.wholeMilliseconds(rounded: .up) == 0)
        #expect(Duration.milliseconds(500).wholeMilliseconds(rounded: .up) == 500)
    }

    @Test func wholeNanosecondsKeepTheSecondsAndRoundTheFraction() {
        #expect(Duration.seconds(2).wholeNanoseconds(rounded: .towardZero) == 2_000_000_000)
        #expect((Duration.seconds(1) + .milliseconds(250)).wholeNanoseconds(rounded: .towardZero) == 1_250_000_000)
        let withAttoseconds = Duration(secondsComponent: 1, attosecondsComponent: 1)
        #expect(withAttoseconds.wholeNanoseconds(rounded: .towardZero) == 1_000_000_000)
        #expect(withAttoseconds.wholeNanoseconds(rounded: .up) == 1_000_000_001)
        // 0.75 s written as a fraction of a second: what dropping the fraction makes zero.
        #expect(Duration.seconds(0.75).wholeNanoseconds(rounded: .toNearestOrEven) == 750_000_000)
        #expect(Duration.seconds(0.75).wholeMilliseconds(rounded: .toNearestOrEven) == 750)
    }

    @Test func negativeDurationsRoundByTheRule() {
        let duration = Duration.zero - .microseconds(1_500)
        #expect(duration.wholeMilliseconds(rounded: .towardZero) == -1)
        #expect(duration.wholeMilliseconds(rounded: .down) == -2)
        #expect(duration.wholeMilliseconds(rounded: .up) == -1)
        #expect(duration.wholeMilliseconds(rounded: .awayFromZero) == -2)
        #expect(duration.wholeMilliseconds(rounded: .toNearestOrAwayFromZero) == -2)
        #expect(duration.wholeMilliseconds(rounded: .toNearestOrEven) == -2)
        #expect((Duration.zero - .microseconds(2_500)).wholeMilliseconds(rounded: .toNearestOrEven) == -2)
        #expect((Duration.zero - .seconds(3)).wholeMilliseconds(rounded: .up) == -3_000)
        #expect((Duration.zero - .nanoseconds(1)).inSeconds == -1e-9)
    }

    /// Years, and more than a nanosecond count or a millisecond count holds: clamped, not trapped
    /// and not wrapped.
    @Test func longDurationsKeepTheirSecondsOrClamp() {
        let year = Duration.seconds(365 * 24 * 3600)
        #expect(year.wholeMilliseconds(rounded: .up) == 31_536_000_000)
        #expect(year.wholeNanoseconds(rounded: .up) == 31_536_000_000_000_000)
        #expect((year * 100).wholeNanoseconds(rounded: .up) == 3_153_600_000_000_000_000)
        #expect((year * 300).wholeNanoseconds(rounded: .up) == .max, "past 292 years nanoseconds clamp")
        #expect((Duration.zero - year * 300).wholeNanoseconds(rounded: .down) == .min)
        let longest = Duration.seconds(Int64.max)
        #expect(longest.wholeMilliseconds(rounded: .up) == .max)
        #expect(longest.wholeNanoseconds(rounded: .towardZero) == .max)
        #expect(longest.inSeconds == Double(Int64.max))
        #expect((Duration.zero - longest).wholeMilliseconds(rounded: .down) == .min)
        // Just below the clamp: exact.
        let nearest = Duration(secondsComponent: 9_223_372_036, attosecondsComponent: 854_775_807_000_000_000)
        #expect(nearest.wholeNanoseconds(rounded: .towardZero) == .max)
        #expect(nearest.wholeNanoseconds(rounded: .up) == .max)
        #expect((nearest + .nanoseconds(1)).wholeNanoseconds(rounded: .up) == .max)
    }

    @Test func secondsAndMillisecondsAsDoublesKeepTheFraction() {
        let duration = Duration.seconds(90) + .milliseconds(250)
        #expect(duration.inSeconds == 90.25)
        #expect(duration.inMilliseconds == 90_250)
        #expect(Duration.microseconds(1_500).inMilliseconds == 1.5)
        #expect(Duration.zero.inSeconds == 0)
    }
}
