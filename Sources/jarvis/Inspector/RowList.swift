import JarvisInspector

extension Inspector {
    /// The rows a list page shows: every row built for its level once, and the positions of
    /// those the filter keeps, so a keystroke of a filter over 30,000 keys copies positions,
    /// not rows.
    struct RowList: RandomAccessCollection {
        /// Every row of the level, unfiltered.
        var all: [Row]
        /// The positions in ``all`` the filter keeps, in order; nil keeps every row.
        var kept: [Int]?

        var startIndex: Int { 0 }
        var endIndex: Int { kept?.count ?? all.count }
        subscript(position: Int) -> Row { all[kept?[position] ?? position] }

        /// No rows.
        static var empty: RowList { RowList(all: [], kept: nil) }
    }
}
