import Foundation

/// Notes a write's answer carries when the storage kept the value differently from how it was
/// sent, in a way the client should hear about but that is not an error.
extension PreferenceItem {
    /// This item (as stored after a write) with a note for every way `sent` was rounded.
    ///
    /// Today that is dates: an XML property list keeps whole seconds only, so a date sent with
    /// a fraction of a second comes back without it. Other differences are left alone; they
    /// are the scanner's normalisation (a JSON file's number spelling) or a catalog default.
    public func noting(roundingOf sent: PreferenceValue) -> PreferenceItem {
        guard let value else { return self }
        var rounded: [(place: [String], stored: Date)] = []
        Self.collectRoundedDates(sent: sent, stored: value, at: [], into: &rounded)
        guard let first = rounded.first else { return self }
        var copy = self
        let base = pointer?.tokens ?? []
        let place = JSONPointer(tokens: base + first.place)
        let where_ = place.isWhole ? "the date" : "the date at \(place)"
        let others = rounded.count > 1 ? " (and \(rounded.count - 1) more date\(rounded.count == 2 ? "" : "s"))" : ""
        copy.notes.append(
            "'\(address.key)': \(where_)\(others) was stored as \(DateText.format(first.stored)), rounded to whole seconds: '\(address.container)' is kept in a format that holds no fraction of a second (an XML property list); a binary property list keeps it"
        )
        return copy
    }

    private static func collectRoundedDates(
        sent: PreferenceValue, stored: PreferenceValue, at place: [String],
        into found: inout [(place: [String], stored: Date)]
    ) {
        switch (sent, stored) {
        case (.date(let wanted), .date(let kept)):
            let difference = abs(wanted.timeIntervalSinceReferenceDate - kept.timeIntervalSinceReferenceDate)
            if difference > 0, difference < 1 { found.append((place, kept)) }
        case (.array(let wanted), .array(let kept)) where wanted.count == kept.count:
            for index in wanted.indices {
                collectRoundedDates(sent: wanted[index], stored: kept[index], at: place + ["\(index)"], into: &found)
            }
        case (.dictionary(let wanted), .dictionary(let kept)):
            for key in wanted.keys.sorted() {
                guard let inner = wanted[key], let keptInner = kept[key] else { continue }
                collectRoundedDates(sent: inner, stored: keptInner, at: place + [key], into: &found)
            }
        default:
            break
        }
    }
}
