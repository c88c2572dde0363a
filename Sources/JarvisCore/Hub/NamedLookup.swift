/// The names a request that names one container asks its scanner about (see
/// ``ScannerVisibility/lookup(container:key:absent:)``).
package struct NamedLookup: Sendable, Hashable {
    /// The container to ask about: the one named, or a stand-in when it is hidden.
    package var container: String
    /// The key to ask about: the one named, or a stand-in when it is hidden.
    package var key: String
    /// Whether the names asked for are shown; when false, the answer is "not found".
    package var isShown: Bool
}
