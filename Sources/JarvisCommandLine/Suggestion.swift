/// "Did you mean …?": the nearest of some known words to a mistyped one.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance (case-insensitive), when it is close
    /// enough to be a typo: at most a third of the word's length, and at least one edit.
    package static func nearest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        guard !target.isEmpty else { return nil }
        let limit = max(1, target.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(target, Array(candidate.lowercased()), limit: limit)
            guard distance <= limit else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        // A word spelt out where the tool abbreviates, or the other way round: --integer, --int.
        let bare = word.lowercased().drop { $0 == "-" }
        return candidates.first { candidate in
            let other = candidate.lowercased().drop { $0 == "-" }
            return min(bare.count, other.count) >= 3 && (bare.hasPrefix(other) || other.hasPrefix(bare))
        }
    }

    /// The existing name a new one is most likely a typo of: one or two edits away (one for
    /// names of 3 to 5 characters, none for shorter ones), ignoring case; nil when none is.
    /// Names that differ only in their digits (`server1`, `server2`, `count` and `count2`) are
    /// not typos of each other: numbered names are made on purpose.
    package static func typo(of word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        let limit = min(2, target.count / 3)
        guard target.count >= 3 else { return nil }
        let shape = digitless(word)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let lowered = candidate.lowercased()
            if lowered != word.lowercased(), digitless(candidate) == shape { continue }
            let distance = editDistance(target, Array(lowered), limit: limit)
            guard distance <= limit else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The name without its digits, lowercased.
    private static func digitless(_ word: String) -> String {
        String(word.lowercased().filter { !($0.isASCII && $0.isNumber) })
    }

    /// ` Did you mean 'X'?` for the nearest candidate, or an empty string.
    package static func phrase(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance with adjacent swaps counted as one edit; stops early past `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            var rowMinimum = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
