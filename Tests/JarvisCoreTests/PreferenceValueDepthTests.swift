import JarvisCore
import Testing

@Suite struct PreferenceValueDepthTests {
    /// `levels` containers around a whole real; with `wrapped`, every level is a dictionary
    /// with a `$` key, whose wire encoding is the deepest there is.
    private func nested(_ levels: Int, wrapped: Bool = false) -> PreferenceValue {
        var value: PreferenceValue = .real(1)
        for level in 0..<levels { value = wrapped || level.isMultiple(of: 2) ? ["$k": value] : [value, 2] }
        return value
    }

    @Test func depthCountsArraysAndDictionaries() {
        #expect(PreferenceValue.integer(1).depth == 0)
        #expect(PreferenceValue.array([]).depth == 1)
        #expect(PreferenceValue.dictionary(["a": [1, [2]], "b": 3]).depth == 3)
        #expect(nested(PreferenceValue.maxDepth).depth == PreferenceValue.maxDepth)
    }

    @Test func theDeepestValueEncodesWithinTheWireLimit() throws {
        let deepest = nested(PreferenceValue.maxDepth, wrapped: true)
        let text = JSONWriter.bytes(deepest.json)
        let parsed = try JSONParser.parse(text, maxDepth: PreferenceValue.maxWireDepth)
        #expect(try PreferenceValue(json: parsed) == deepest)
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse(
                JSONWriter.bytes(PreferenceValue.dictionary(["k": deepest]).json),
                maxDepth: PreferenceValue.maxWireDepth)
        }
    }

    @Test func checkDepthCountsThePlaceBelow() throws {
        let deepest = nested(PreferenceValue.maxDepth)
        try deepest.checkDepth()
        #expect(throws: JarvisError.self) { try deepest.checkDepth(below: 1) }
        #expect(throws: JarvisError.self) { try nested(PreferenceValue.maxDepth + 1).checkDepth() }
        try nested(3).checkDepth(below: PreferenceValue.maxDepth - 3)
    }
}
