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

    /// A position outside the rows is a row that offers nothing when read, and changes
    /// nothing when written: the app embedding the inspector never traps.
    @Test func aPositionOutsideTheRowsNeitherTrapsNorChangesAnything() {
        let size = InspectorRowChunks.chunkSize
        var rows = InspectorRowChunks((0..<(size + 3)).map(Self.row))
        for position in [-1, size + 3, 5 * size, Int.min, Int.max] {
            let missing = rows[position]
            #expect(missing.problem == "row \(position) does not exist: the table has \(size + 3) rows")
            #expect(!missing.isOpenable && !missing.isEditable && !missing.isDeletable && !missing.isRevealable)
            rows[position] = Self.row(99)
        }
        #expect(rows.count == size + 3)
        #expect(rows.map(\.title) == (0..<(size + 3)).map { "k\($0)" })
        let empty = InspectorRowChunks()
        #expect(empty[0].problem == "row 0 does not exist: the table has 0 rows")
    }
}
