/// How deeply values may nest, so that every value a scanner serves can be written back
/// through the wire (docs/PROTOCOL.md, "Limits").
///
/// The limit is on the value, not on a JSON document: a value nested `maxDepth` levels
/// deep has a wire encoding at most ``maxWireDepth`` levels deep (a `$dictionary` wrapper
/// can double each level, a `$date`, `$data` or `$real` wrapper adds one at the leaf), and
/// the agent accepts requests nested that deep plus their envelope. The built-in scanners
/// never serve a deeper value (a JSON file or property list that holds one is reported as a
/// problem), and the agent leaves out a deeper value from a host's own scanner.
extension PreferenceValue {
    /// The most arrays and dictionaries a value may nest inside one another.
    public static let maxDepth = JSONParser.maxValueDepth

    /// The deepest the wire encoding of a value of ``maxDepth`` levels can be.
    public static let maxWireDepth = JSONParser.maxValueWireDepth

    /// How many arrays and dictionaries nest here: 0 for a scalar, 1 for `[1, 2]`.
    public var depth: Int {
        switch self {
        case .array(let values): 1 + (values.lazy.map(\.depth).max() ?? 0)
        case .dictionary(let values): 1 + (values.values.lazy.map(\.depth).max() ?? 0)
        default: 0
        }
    }

    /// Refuses a value that would nest deeper than ``maxDepth`` once placed `below` levels
    /// down (a JSON Pointer's token count), so nothing is stored that could not be served.
    /// - Throws: ``JarvisError`` `.tooLarge` saying how deep it is and what the limit is.
    public func checkDepth(below levels: Int = 0) throws(JarvisError) {
        let total = levels + depth
        guard total <= Self.maxDepth else {
            throw JarvisError(
                .tooLarge,
                "the value would nest \(total) levels deep; values nest at most \(Self.maxDepth) levels of arrays and dictionaries"
            )
        }
    }
}
