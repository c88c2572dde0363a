/// A shell-style pattern for container and key names: `*` (any run, `/` included), `?` (one
/// character), `[abc]`, `[a-z]`, `[!abc]`, and `\` to take the next character literally.
///
/// Names are compared in Unicode's composed form (NFC, see `String.composedName`): the
/// pattern when it is parsed and the name when it is matched, so a rule written `señor`
/// matches `sen\u{0303}or` and the other way round, as `String`'s `==` and every lookup do.
///
/// Parsed once, matched many times: listings check every key against every pattern. A match
/// costs time linear in the name for patterns of `*` and literals whatever their length (a
/// segment between `*`s with `?` or a set costs a machine word per 64 of its characters per
/// character of the name): a long pattern sent by a client never costs name × pattern.
public struct GlobPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    private typealias Token = GlobToken

    /// The pattern as written.
    public let description: String
    private let tokens: [Token]
    private let literalText: String?
    private let segments: GlobSegmentMatcher

    /// Parses a pattern; every string is a valid pattern (an unclosed `[` is a literal).
    public init(_ pattern: String) {
        description = pattern
        var tokens: [Token] = []
        let scalars = Array(pattern.composedName.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?":
                tokens.append(.any)
            case "\\" where index + 1 < scalars.count:
                index += 1
                tokens.append(.literal(scalars[index]))
            case "[":
                if let (token, next) = Self.parseSet(scalars, from: index + 1) {
                    tokens.append(token)
                    index = next
                } else {
                    tokens.append(.literal(scalar))
                }
            default:
                tokens.append(.literal(scalar))
            }
            index += 1
        }
        self.tokens = tokens
        segments = GlobSegmentMatcher(tokens)
        var literal = String.UnicodeScalarView()
        for token in tokens {
            guard case .literal(let scalar) = token else {
                literalText = nil
                return
            }
            literal.append(scalar)
        }
        literalText = String(literal)
    }

    /// Same as `init(_:)`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A pattern that matches exactly `text`: each `*`, `?`, `[` and `\\` taken literally.
    public static func literal(_ text: String) -> GlobPattern {
        var pattern = ""
        for character in text {
            if "*?[\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        return GlobPattern(pattern)
    }

    /// Whether the pattern has no wildcards, so it names exactly one string.
    public var isExact: Bool { literalText != nil }

    /// The one string an exact pattern names; nil for a pattern with wildcards.
    public var exactText: String? { literalText }

    /// Whether `text` matches the whole pattern, whatever the Unicode spelling of either.
    public func matches(_ text: String) -> Bool {
        // `==` compares canonically equivalent spellings as equal.
        if let literalText { return text == literalText }
        return matchTokens(text)
    }

    /// Whether `text`, already in composed form (`String.composedName`), matches the whole
    /// pattern: ``matches(_:)`` without composing it again, for a caller that matches the
    /// same texts against many patterns.
    package func matches(composed text: String) -> Bool {
        if let literalText { return text == literalText }
        return matchTokens(composed: text)
    }

    /// Whether `text`, composed, matches by the segment matcher whatever the lengths: what
    /// the tests compare with ``backtrack(composed:)``.
    package func matchSegments(composed text: String) -> Bool {
        segments.matches(Array(text.unicodeScalars))
    }

    private func matchTokens(_ text: String) -> Bool {
        matchTokens(composed: text.composedName)
    }

    /// Backtracking is quickest for short patterns and names, and costs their product at worst:
    /// past this product the segment matcher, linear in the name, takes over.
    private static let backtrackingLimit = 1 << 14

    private func matchTokens(composed text: String) -> Bool {
        // The UTF-8 count bounds the scalar count and costs nothing for a native string.
        if tokens.count * text.utf8.count > Self.backtrackingLimit {
            return segments.matches(Array(text.unicodeScalars))
        }
        return backtrack(composed: text)
    }

    /// Whether `text` matches by backtracking to the last `*`: no allocation, time up to the
    /// product of the lengths.
    package func backtrack(composed text: String) -> Bool {
        // Walks the scalars in place: an array of them per text cost more than the match
        // (a filter over 30,000 rows matches 60,000 texts per keystroke).
        let input = text.unicodeScalars
        var t = input.startIndex
        var p = 0
        var starToken = -1
        var starInput = input.startIndex
        while t < input.endIndex {
            if p < tokens.count {
                switch tokens[p] {
                case .anyRun:
                    starToken = p
                    starInput = t
                    p += 1
                    continue
                case .any:
                    input.formIndex(after: &t)
                    p += 1
                    continue
                case .literal(let scalar) where scalar == input[t]:
                    input.formIndex(after: &t)
                    p += 1
                    continue
                case .set(let ranges, let negated) where ranges.contains(where: { $0.contains(input[t]) }) != negated:
                    input.formIndex(after: &t)
                    p += 1
                    continue
                default:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            input.formIndex(after: &starInput)
            t = starInput
            p = starToken + 1
        }
        while p < tokens.count, tokens[p] == .anyRun { p += 1 }
        return p == tokens.count
    }

    private static func parseSet(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, Int)? {
        var index = start
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "]" && !first {
                return (.set(ranges, negated: negated), index)
            }
            first = false
            if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
                let upper = scalars[index + 2]
                ranges.append(scalar <= upper ? scalar...upper : upper...scalar)
                index += 3
            } else {
                ranges.append(scalar...scalar)
                index += 1
            }
        }
        return nil
    }
}
