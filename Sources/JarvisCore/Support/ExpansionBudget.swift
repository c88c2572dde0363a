/// What one read of a file may expand to in memory, shared by everything the read decodes:
/// the file's own value and every piece of data inside it that is decoded as a structure (a
/// property list or JSON a `Codable` value was stored as), each charged at its expanded size
/// every time it is decoded.
///
/// A binary property list can refer to one data object from many keys; each key decodes its
/// own copy, so the copies are charged one by one against the one budget of the file, and a
/// small file cannot decode into gigabytes however its references are arranged. A plain
/// value: one read owns it.
package struct ExpansionBudget: Sendable, Hashable {
    /// The most the read may take in memory, in bytes.
    package let limit: Int
    /// The size of the file read, for the message; nil for a read of no file.
    package let fileSize: Int?
    /// What the values decoded so far take (it may pass ``limit``: see ``isPassed``).
    package private(set) var spent = 0
    /// Whether what was charged is known only to be more than ``spent`` (a read stopped
    /// counting once it passed what was left).
    package private(set) var isLowerBound = false

    /// The budget of a file of `fileSize` bytes: ``PropertyListLimits/budget(for:)``.
    package init(fileSize: Int, limits: PropertyListLimits = .standard) {
        self.fileSize = fileSize
        limit = limits.budget(for: fileSize)
    }

    /// A budget of `limit` bytes for a read of no file (values another library read).
    package init(limit: Int) {
        fileSize = nil
        self.limit = max(0, limit)
    }

    /// What may still be charged before the budget is passed.
    package var remaining: Int { max(0, limit - spent) }

    /// Whether the values charged take more than ``limit``.
    package var isPassed: Bool { spent > limit }

    /// Charges `bytes` more; `atLeast` when the read stopped counting past them.
    package mutating func charge(_ bytes: Int, atLeast: Bool = false) {
        let (sum, overflow) = spent.addingReportingOverflow(max(0, bytes))
        spent = overflow ? Int.max : sum
        isLowerBound = isLowerBound || atLeast || bytes == Int.max
    }

    /// Why the file is not read, for a person: the size it would expand to and the budget it
    /// passes, e.g. `would expand to 15.8 MiB in memory (…), past the 5.9 MiB a file of 62000
    /// bytes may take`.
    /// - Parameter counting: what was counted each time, in words.
    package func excess(counting: String) -> String {
        let what =
            spent == Int.max
            ? "more than \(Self.spoken(limit))" : isLowerBound ? "more than \(Self.spoken(spent))" : Self.spoken(spent)
        let whose = fileSize.map { "a file of \($0) bytes" } ?? "one read"
        return "would expand to \(what) in memory (\(counting)), past the \(Self.spoken(limit)) \(whose) may take"
    }

    /// A size as a person reads it: MiB with one decimal, or KiB below one MiB.
    package static func spoken(_ size: Int) -> String {
        guard size >= 1 << 20 else { return "\(max(1, size >> 10)) KiB" }
        let tenths = size / (1 << 20 / 10)
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
