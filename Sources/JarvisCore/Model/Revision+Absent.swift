extension Revision {
    /// The revision of a key with nothing stored (an unset catalogued key). Sent back as an
    /// expected revision, it means "write only if the key is still absent".
    public static let absent = Revision("0000000000000000")
}
