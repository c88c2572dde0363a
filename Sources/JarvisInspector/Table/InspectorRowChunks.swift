/// A table's rows kept in chunks of ``chunkSize``, read and changed like an array.
///
/// Faces that share a table (the browser inspector's pages on one agent) each hold a copy;
/// with one array, changing one row of a copy copied every row (100,000 of them for one
/// change). Here a copy shares the chunks, and changing a row copies only its chunk and the
/// short list of chunks.
public struct InspectorRowChunks: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Sendable {
    /// How many rows a chunk holds (every chunk but the last is full).
    public static let chunkSize = 1024

    private var chunks: [[InspectorRow]] = []
    /// How many rows there are.
    public private(set) var count = 0

    /// No rows.
    public init() {}

    /// The rows of `rows`, in order.
    public init(_ rows: some Sequence<InspectorRow>) {
        var chunk: [InspectorRow] = []
        for row in rows {
            if chunk.isEmpty { chunk.reserveCapacity(Self.chunkSize) }
            chunk.append(row)
            count += 1
            if chunk.count == Self.chunkSize {
                chunks.append(chunk)
                chunk = []
            }
        }
        if !chunk.isEmpty { chunks.append(chunk) }
    }

    /// The rows listed.
    public init(arrayLiteral rows: InspectorRow...) {
        self.init(rows)
    }

    /// The first row's position, 0.
    public var startIndex: Int { 0 }
    /// One past the last row's position.
    public var endIndex: Int { count }

    /// The row at `position`.
    ///
    /// A position outside `0..<count` never traps the app that embeds the inspector (a
    /// miscounted index is a bug to test, not a crash to ship): reading it gives
    /// ``missingRow(_:of:)``, a row that offers nothing, and writing it changes nothing.
    public subscript(position: Int) -> InspectorRow {
        get {
            guard indices.contains(position) else { return Self.missingRow(position, of: count) }
            return chunks[position / Self.chunkSize][position % Self.chunkSize]
        }
        set {
            guard indices.contains(position) else { return }
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
        }
    }

    /// What reading past the rows gives: a row that names the position asked for in its
    /// problem and cannot be opened, edited, deleted or revealed.
    public static func missingRow(_ position: Int, of count: Int) -> InspectorRow {
        InspectorRow(
            target: .scanner(""), title: "", subtitle: nil, type: nil, preview: "", count: nil, flags: [],
            problem: "row \(position) does not exist: the table has \(count) row\(count == 1 ? "" : "s")",
            isOpenable: false, isEditable: false, isDeletable: false, isRevealable: false)
    }
}
