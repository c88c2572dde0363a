import Testing

@testable import JarvisInspector

/// The index a face keeps to filter its rows on every keystroke: whatever was typed or
/// deleted before, it keeps exactly the rows a fresh filter keeps.
@Suite struct InspectorFilterIndexTests {
    /// Rows like a real suite's: keys that share prefixes, values with capitals and accents.
    static let texts: [InspectorFilter.Folded] = (0..<600).map { number in
        let values = ["Ada Lovelace", "é accent", "8080", "a*b?c", "", "Bench.Key", "ab.0"]
        return InspectorFilter.Folded(
            title: "bench.key.\(String(number, radix: 7))" + (number % 5 == 0 ? "_A" : ""),
            preview: values[number % values.count] + String(number % 13))
    }

    /// What a fresh filter keeps, as ``InspectorFilterIndex/kept(by:)`` answers it.
    static func fresh(_ text: String) -> [Int]? {
        let filter = InspectorFilter(text)
        if filter.isEmpty { return nil }
        return texts.indices.filter { filter.matches(folded: texts[$0]) }
    }

    @Test func typingThenDeletingKeepsWhatAFreshFilterKeeps() {
        var index = InspectorFilterIndex(Self.texts)
        var typed = ""
        var steps: [String] = []
        for character in "bench.key.1" {
            typed.append(character)
            steps.append(typed)
        }
        // Back to "bench", then a different turn, capitals, and pattern characters.
        for _ in 0..<6 {
            typed.removeLast()
            steps.append(typed)
        }
        steps += [
            "benc", "bench.KEY.2", "bench.key.2*", "bench.key.2", "bench.key.2?", "*_a", "*_a?", "*", "", "A", "AD",
        ]
        for text in steps {
            #expect(index.kept(by: InspectorFilter(text)) == Self.fresh(text), "after typing \(text)")
        }
        // Something was narrowed at all: the first keystrokes keep many rows, the last few.
        #expect((Self.fresh("b")?.count ?? 0) > (Self.fresh("bench.key.1")?.count ?? 0))
    }

    @Test func anySequenceOfKeystrokesKeepsWhatAFreshFilterKeeps() {
        var index = InspectorFilterIndex(Self.texts)
        var generator = SeededGenerator(seed: 29)
        let alphabet = Array("bench.ky0123456_AaÉé*? ")
        var typed = ""
        for _ in 0..<3000 {
            // Mostly typing, sometimes deleting, now and then clearing.
            switch generator.next() % 10 {
            case 0...5: typed.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            case 6...8: if !typed.isEmpty { typed.removeLast() }
            default: typed = ""
            }
            let kept = index.kept(by: InspectorFilter(typed))
            #expect(kept == Self.fresh(typed), "after typing \(typed)")
            if kept != Self.fresh(typed) { return }
        }
    }

    @Test func aFilterLongerThanTheTrailStillAnswersAsAFreshOne() {
        var index = InspectorFilterIndex(Self.texts)
        var typed = ""
        for _ in 0..<(InspectorFilterIndex.trailLimit + 10) {
            typed += "e"
            _ = index.kept(by: InspectorFilter("b" + typed))
        }
        for _ in 0..<(InspectorFilterIndex.trailLimit + 10) {
            typed.removeLast()
            #expect(index.kept(by: InspectorFilter("b" + typed)) == Self.fresh("b" + typed))
        }
        #expect(index.kept(by: InspectorFilter("bench")) == Self.fresh("bench"))
    }

    @Test func theIndexOfRealRowsMatchesAsTheRowsDo() throws {
        let fixture = try InspectorFixture()
        let agent = try fixture.agent()
        let session = InspectorSession(source: InProcessSource(agent: agent))
        defer { session.close(); agent.stop() }
        try session.load()
        let rows = session.state.tableRows(scanner: nil, container: nil)
        var index = InspectorFilterIndex(rows: rows)
        for text in ["n", "na", "nam", "NAME", "nam", "n", "", "*count", "l?cal*", "8080", "ada", "ß", "é"] {
            let filter = InspectorFilter(text)
            let expected = filter.isEmpty ? nil : rows.indices.filter { filter.matches(rows[$0]) }
            #expect(index.kept(by: filter) == expected, "after typing \(text)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing sequence can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
