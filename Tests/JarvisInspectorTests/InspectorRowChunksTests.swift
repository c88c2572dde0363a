import JarvisCore
@testable import JarvisInspector
import Testing

/// Rows in chunks read and change as an array does, a copy's change never reaching the original.
@Suite struct InspectorRowChunksTests {
    static func row(_ number: Int) -> InspectorRow {
        InspectorRow(
            target: .key(PreferenceAddress(scanner: "s", container: "c", key: "k\(number)")), title: "k\(number)",
            subtitle: nil, type: nil, preview: "\(number)", count: nil, flags: [], problem: nil, isOpenable: false,
            isEditable: true, isDeletable: true, isRevealable: false)
    }

    @Test func rowsAcrossChunksReadAndChangeAsAnArray() {
        let size = InspectorRowChunks.chunkSize
        for count in [0, 1, size - 1, size, size + 1, 2 * size + 7] {
            let array = (0..<count).map(Self.row)
            let chunks = InspectorRowChunks(array)
            #expect(chunks.count == count)
            #expect(chunks.map(\.title) == array.map(\.title))
            #expect(Array(chunks[chunks.startIndex..<chunks.endIndex]).map(\.preview) == array.map(\.preview))
        }
        let original = InspectorRowChunks((0..<(2 * size + 7)).map(Self.row))
        var copy = original
        for position in [0, size - 1, size, 2 * size + 6] {
            copy[position].preview = "changed \(position)"
        }
        #expect(copy[size].preview == "changed \(size)")
        #expect(original[size].preview == "\(size)", "the original keeps its rows")
        #expect(zip(original, copy).filter { $0.preview != $1.preview }.count == 4)
        let literal: InspectorRowChunks = [Self.row(1), Self.row(2)]
        #expect(literal.map(\.title) == ["k1", "k2"])
    }
}
