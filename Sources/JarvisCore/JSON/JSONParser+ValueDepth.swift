/// How deeply stored values may nest, in the JSON codec's terms, so that the wire layer can
/// derive its limits from them without the value model (see ``PreferenceValue/maxDepth``).
extension JSONParser {
    /// The most arrays and dictionaries a stored value may nest inside one another.
    public static let maxValueDepth = 255

    /// The deepest the wire encoding of such a value can be: each dictionary may be wrapped
    /// in `{"$dictionary":…}`, and the scalar at the bottom in `{"$date":…}` and the like.
    public static let maxValueWireDepth = 2 * maxValueDepth + 1
}
