/// Matches a glob in time linear in the text for any pattern of `*` and literals, and in
/// time proportional to text × segment length / 64 for a segment with `?` or a set: the
/// pattern is cut at its `*`s into fixed-length segments, the first held to the start, the
/// last to the end, and each one between found at its leftmost place after the one before
/// (the leftmost place never loses a match another place would have found).
///
/// A literal segment is found with Knuth–Morris–Pratt; a segment with `?` or a set with a
/// bit-parallel scan (shift-and), a machine word per 64 scalars of it. Neither ever goes back
/// over the text, so a client's `*aaa…b` of 50,000 scalars against a key of 100,000 costs
/// one pass, where backtracking costs their product.
struct GlobSegmentMatcher: Sendable, Hashable {
    /// The pattern's segments in order, `*`s removed; the first and last may be empty.
    private let segments: [[GlobToken]]
    /// For each segment of literals only, its KMP failure table; nil for the others.
    private let failures: [[Int]?]

    /// Cuts `tokens` at their `*`s (consecutive ones already merged by the parser).
    init(_ tokens: [GlobToken]) {
        var segments: [[GlobToken]] = [[]]
        for token in tokens {
            if token == .anyRun {
                segments.append([])
            } else {
                segments[segments.count - 1].append(token)
            }
        }
        self.segments = segments
        failures = segments.map { segment in
            var scalars: [Unicode.Scalar] = []
            for token in segment {
                guard case .literal(let scalar) = token else { return nil }
                scalars.append(scalar)
            }
            return Self.failureTable(scalars)
        }
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: [Unicode.Scalar]) -> Bool {
        let first = segments[0]
        guard segments.count > 1 else {
            return text.count == first.count && Self.matches(first, in: text, at: 0)
        }
        let last = segments[segments.count - 1]
        guard first.count + last.count <= text.count else { return false }
        let end = text.count - last.count
        guard Self.matches(first, in: text, at: 0), Self.matches(last, in: text, at: end) else { return false }
        var position = first.count
        for index in 1..<(segments.count - 1) {
            let segment = segments[index]
            let found: Int?
            if let failure = failures[index] {
                found = Self.findLiteral(segment, failure: failure, in: text, from: position, end: end)
            } else {
                found = Self.findMixed(segment, in: text, from: position, end: end)
            }
            guard let found else { return false }
            position = found + segment.count
        }
        return position <= end
    }

    private static func matches(_ segment: [GlobToken], in text: [Unicode.Scalar], at start: Int) -> Bool {
        for (offset, token) in segment.enumerated() where !token.accepts(text[start + offset]) {
            return false
        }
        return true
    }

    /// The KMP table: for each prefix length, the length of its longest proper border.
    private static func failureTable(_ scalars: [Unicode.Scalar]) -> [Int] {
        var table = [Int](repeating: 0, count: scalars.count + 1)
        guard !scalars.isEmpty else { return table }
        var border = 0
        for index in 1..<scalars.count {
            while border > 0, scalars[index] != scalars[border] { border = table[border] }
            if scalars[index] == scalars[border] { border += 1 }
            table[index + 1] = border
        }
        return table
    }

    /// Where the literal segment first occurs wholly inside `text[from..<end]`.
    private static func findLiteral(
        _ segment: [GlobToken], failure: [Int], in text: [Unicode.Scalar], from: Int, end: Int
    ) -> Int? {
        let scalars = segment.map { token -> Unicode.Scalar in
            if case .literal(let scalar) = token { return scalar }
            return "\0"
        }
        var matched = 0
        var index = from
        while index < end {
            while matched > 0, text[index] != scalars[matched] { matched = failure[matched] }
            if text[index] == scalars[matched] { matched += 1 }
            index += 1
            if matched == scalars.count { return index - matched }
        }
        return nil
    }

    /// Where the segment with `?` or sets first occurs wholly inside `text[from..<end]`: a
    /// shift-and scan, bit `i` set when the segment's first `i + 1` tokens end at this scalar.
    private static func findMixed(_ segment: [GlobToken], in text: [Unicode.Scalar], from: Int, end: Int) -> Int? {
        var masks = GlobScalarMasks(segment)
        let words = masks.words
        let lastWord = (segment.count - 1) / 64
        let lastBit = UInt64(1) << UInt64((segment.count - 1) % 64)
        var state = [UInt64](repeating: 0, count: words)
        var index = from
        while index < end {
            let mask = masks.mask(for: text[index])
            var carry: UInt64 = 1
            for word in 0..<words {
                let next = state[word] >> 63
                state[word] = ((state[word] << 1) | carry) & mask[word]
                carry = next
            }
            index += 1
            if state[lastWord] & lastBit != 0 { return index - segment.count }
        }
        return nil
    }
}
