import JarvisCore

/// One line of a level: what a list row shows and what may be done with it.
///
/// Every decision a face needs is here, so the terminal and the SwiftUI panel only draw it.
public struct InspectorRow: Sendable, Hashable, Identifiable {
    /// What a row stands for.
    public enum Target: Sendable, Hashable {
        /// A scanner, by id.
        case scanner(String)
        /// A container of a scanner.
        case container(scanner: String, name: String)
        /// A key.
        case key(PreferenceAddress)
        /// A member nested inside a key's value.
        case member(PreferenceAddress, JSONPointer)

        /// The key a key or member row belongs to.
        public var address: PreferenceAddress? {
            switch self {
            case .key(let address), .member(let address, _): return address
            case .scanner, .container: return nil
            }
        }

        /// The pointer of a member row; the whole value for a key row.
        public var pointer: JSONPointer {
            if case .member(_, let pointer) = self { return pointer }
            return JSONPointer(tokens: [])
        }
    }

    /// Marks beside a row's value.
    public enum Flag: String, Sendable, Hashable, CaseIterable {
        /// Only a registered default: nothing is stored.
        case registeredDefault = "default"
        /// Declared in the key catalog, nothing stored: the default applies.
        case unset
        /// A secret shown masked.
        case masked = "secret"
        /// A secret the user revealed.
        case revealed
        /// No client may change it.
        case readOnly = "read-only"
        /// The stored bytes hold JSON or a property list shown as its structure.
        case encoded
        /// A stand-in for what is stored (a JSON null, a number out of range).
        case placeholder
        /// Changed in the agent a moment ago.
        case changed
    }

    /// What the row stands for; also its identity.
    public var target: Target
    /// The name: scanner id, container name, key, member key or index.
    public var title: String
    /// A second line: a scanner's name, a key's container in a flat listing.
    public var subtitle: String?
    /// The value's type name; nil for scanners and containers.
    public var type: PreferenceType?
    /// The value shortened for one line, as plain text (never the wire encoding).
    public var preview: String
    /// Keys of a scanner or container, members of a dictionary or array.
    public var count: Int?
    /// Marks to show beside the value.
    public var flags: [Flag]
    /// Why a scanner or container cannot be read, in the agent's words.
    public var problem: String?
    /// Why a container is named as large (``ContainerSize/warning``), for every face to show
    /// beside it; nil for other rows and containers that are not.
    public var sizeWarning: String? = nil
    /// Whether the row opens a level below (scanner, container, dictionary, array).
    public var isOpenable: Bool
    /// Whether an edit may be offered.
    public var isEditable: Bool
    /// Whether a delete may be offered.
    public var isDeletable: Bool
    /// Whether a reveal may be offered.
    public var isRevealable: Bool
    /// Whether a reset may be offered: a stored value whose catalog default applies once it
    /// is removed. (Elsewhere removing it is a delete.)
    public var isResettable = false
    /// Whether "replace secret" may be offered: a masked secret the user may overwrite
    /// without seeing it, after a confirmation (``InspectorSession/replacementDraft(for:)``).
    public var isReplaceable = false
    /// How the stored bytes encode the shown value (`json`, `plist`), with ``Flag/encoded``.
    public var encoding: ValueEncoding? = nil
    /// What a changed row showed before its change (`Ada`, `(new)`), for "old → new"; nil
    /// unless the row is marked ``Flag/changed``.
    public var previous: String? = nil
    /// The one-key change the row offers without an editor: a boolean toggles, a catalogued
    /// choice moves to the next value (``InspectorSession/quickEdit(_:_:)``); nil for none.
    public var quickEdit: InspectorQuickEdit? = nil
    /// Whether the row holds an array that may gain an element
    /// (``InspectorSession/appendDraft(to:)``).
    public var isAppendable = false

    /// The row's identity.
    public var id: Target { target }

    /// Whether the row carries `flag`.
    public func has(_ flag: Flag) -> Bool { flags.contains(flag) }

    /// What a filter matches: the title and the preview.
    var filterText: String { title + "\u{0}" + preview }
}

/// A group of key rows under a container, for a flat listing of many containers.
public struct InspectorSection: Sendable, Hashable, Identifiable {
    /// The scanner of the container.
    public var scanner: String
    /// The container's name.
    public var container: String
    /// Why the container cannot be read, if it cannot.
    public var problem: String?
    /// Why the container is named as large (``ContainerSize/warning``), if it is.
    public var sizeWarning: String? = nil
    /// Its key rows, filtered.
    public var rows: [InspectorRow]
    /// The section's identity: scanner and container.
    public var id: String { scanner + "\u{0}" + container }
}

/// A per-scanner segment (All first), with how many keys it holds.
public struct InspectorSegment: Sendable, Hashable, Identifiable {
    /// The scanner id; nil for All.
    public var scanner: String?
    /// The label: "All" or the scanner's name.
    public var title: String
    /// How many keys it holds.
    public var count: Int
    /// The segment's identity.
    public var id: String { scanner ?? "" }
}
