/// One preference as the agent shows it: address, value, type, revision and flags.
///
/// Built by the hub from a scanner's ``ScannedEntry`` after the configuration is applied.
/// When the value is a masked secret, `value` is nil and `mask` says what may be known.
public struct PreferenceItem: Sendable, Hashable {
    /// Where the value lives.
    public var address: PreferenceAddress
    /// The value's type (known even when the value is masked).
    public var type: PreferenceType
    /// The value, or nil when masked.
    public var value: PreferenceValue?
    /// Changes whenever the stored value changes; send it back as an expected revision.
    public var revision: Revision
    /// Stored, or only a registered default.
    public var layer: ValueLayer
    /// Set when the stored bytes encode the shown value (Codable JSON in `Data`).
    public var encoding: ValueEncoding?
    /// Whether a client may change it now (false in production and for read-only scanners).
    public var isWritable: Bool
    /// What is shown instead of a masked secret's value.
    public var mask: Mask?
    /// Set when `type` and `value` are those of a place inside the key's value (a `get` with a
    /// pointer); `revision` is still the whole value's, so it can guard a pointer write.
    public var pointer: JSONPointer? = nil
    /// What the host's key catalog says about the key; nil when it declares nothing.
    public var catalog: CatalogNote? = nil
    /// True when `value` only stands in for what is stored (a JSON `null`, a number out of
    /// range): such an item is read-only, and `import` skips it rather than store the stand-in.
    public var isPlaceholder: Bool = false

    /// Things a write's answer tells the client that are not errors, such as a date the
    /// storage rounded (see ``noting(roundingOf:)``); empty everywhere else.
    public var notes: [String] = []

    /// What a masked secret discloses: its length and a keyed fingerprint, never a prefix.
    public struct Mask: Sendable, Hashable {
        /// Length in characters for strings, in bytes otherwise.
        public var length: Int
        /// A short keyed hash: equal values show equal fingerprints within one agent run, but
        /// without the agent's random key it tells nothing about the value.
        public var fingerprint: String

        /// Creates a mask.
        public init(length: Int, fingerprint: String) {
            self.length = length
            self.fingerprint = fingerprint
        }
    }

    /// Creates an item.
    public init(
        address: PreferenceAddress,
        type: PreferenceType,
        value: PreferenceValue?,
        revision: Revision,
        layer: ValueLayer = .stored,
        encoding: ValueEncoding? = nil,
        isWritable: Bool = true,
        mask: Mask? = nil
    ) {
        self.init(
            address: address, type: type, value: value, revision: revision, layer: layer, encoding: encoding,
            isWritable: isWritable, mask: mask, catalog: nil, isPlaceholder: false)
    }

    /// Creates an item with its catalog note and placeholder flag in one initialisation, as
    /// the hub builds them.
    init(
        address: PreferenceAddress, type: PreferenceType, value: PreferenceValue?, revision: Revision,
        layer: ValueLayer, encoding: ValueEncoding?, isWritable: Bool, mask: Mask?, catalog: CatalogNote?,
        isPlaceholder: Bool
    ) {
        self.address = address
        self.type = type
        self.value = value
        self.revision = revision
        self.layer = layer
        self.encoding = encoding
        self.isWritable = isWritable
        self.mask = mask
        self.catalog = catalog
        self.isPlaceholder = isPlaceholder
    }

    /// Whether the value is withheld.
    public var isMasked: Bool { mask != nil }
}
