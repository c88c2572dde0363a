/// How much a property-list read may take: the bounds that keep a hostile file from
/// crashing or ballooning the process that reads it.
package struct PropertyListLimits: Sendable, Hashable {
    /// How many arrays and dictionaries may nest inside one another. The value is walked
    /// recursively later (compared, converted, written), so this bounds the stack too.
    package var maxDepth: Int
    /// Roughly how many bytes the values read may take in memory. A binary plist can refer
    /// to one object many times, so a small file can describe a huge value; each object is
    /// charged every time it is reached, and reading stops once the total passes this.
    package var maxBytes: Int

    /// Limits for a read.
    package init(
        maxDepth: Int = PropertyListLimits.standard.maxDepth, maxBytes: Int = PropertyListLimits.standard.maxBytes
    ) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    private init(depth: Int, bytes: Int) {
        maxDepth = depth
        maxBytes = bytes
    }

    /// The limits Jarvis reads files with: the depth a ``PreferenceValue`` may have, and
    /// 512 MB (a 64 MB file, the largest a scanner reads, expands to a few times its size).
    package static let standard = PropertyListLimits(depth: PreferenceValue.maxDepth, bytes: 512 << 20)

    /// What a file of `size` bytes may expand to in memory, shared objects counted each time
    /// they are reached: ``maxBytes``, and at most 4 MiB plus 32 bytes for each byte of the
    /// file (real suites take a few times their size; a writer's sharing of equal strings and
    /// numbers stays far below 32). A 61 KB file that refers to one 60 KB object 270 times
    /// (16 MiB) is refused.
    package func budget(for size: Int) -> Int {
        let (scaled, overflow) = size.multipliedReportingOverflow(by: 32)
        return overflow ? maxBytes : min(maxBytes, (4 << 20) + scaled)
    }

    /// What one value of `payload` bytes of its own (text or data by their bytes, a
    /// container's references) takes in memory.
    static func expandedSize(ofPayload payload: Int) -> Int {
        let (size, overflow) = payload.addingReportingOverflow(objectCost)
        return overflow ? Int.max : size
    }

    /// What a value costs against ``maxBytes`` besides its payload: about one enum case with
    /// its reference counting header.
    static let objectCost = 32
}
