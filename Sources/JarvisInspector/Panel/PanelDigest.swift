/// What the panel's screens read on every redraw and every keystroke, computed once per
/// change of the model and off the main thread: the source segments with their counts, the
/// places a new key may go, and how much of a value a detail screen draws.
///
/// At 100,000 keys counting the segments and gathering the add choices each walk every key:
/// done in a view's `body`, they ran on the main thread on every redraw, and the add sheet's
/// choices about three times a keystroke. A face makes one digest per refresh
/// (`PanelStore` does, in a detached task) and its views only look things up in it.
public struct PanelDigest: Sendable {
    /// The per-scanner segments, All first (``InspectorState/segments()``).
    public var segments: [InspectorSegment]
    /// Where a new key may go, in every scanner (``InspectorState/addChoices(scanner:)``).
    public var addChoices: [InspectorAddChoice]

    /// How many characters of a value a detail screen draws: a 10 MB value is one `Text` of
    /// this size at most, built once per change; the whole value is behind Copy.
    public static let previewLimit = 16 * 1024

    /// Nothing yet: before the first digest is made.
    public static let empty = PanelDigest(segments: [], addChoices: [])

    /// A digest of `state`; it walks every key, so make it off the main thread.
    public init(_ state: InspectorState) {
        self.init(segments: state.segments(), addChoices: state.addChoices())
    }

    private init(segments: [InspectorSegment], addChoices: [InspectorAddChoice]) {
        self.segments = segments
        self.addChoices = addChoices
    }

    /// The add choices of one scanner, or of all when nil: a look-up over containers, not
    /// keys, cheap enough for a keystroke.
    public func addChoices(scanner: String?) -> [InspectorAddChoice] {
        guard let scanner else { return addChoices }
        return addChoices.filter { $0.scanner == scanner }
    }
}
