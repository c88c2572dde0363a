import JarvisCore

/// Where opening a row leads, decided by the model so every face navigates alike.
public enum InspectorDestination: Sendable, Hashable {
    /// A list: a scanner's containers, a container's keys, or the members of a dictionary or
    /// array (a key's whole value, or one nested inside it).
    case level(InspectorLevel)
    /// The detail of a key or member with no members to list: its facts, value and editor.
    case detail(PreferenceAddress, JSONPointer)
}

extension InspectorRow {
    /// Where opening this row leads: scanners, containers, dictionaries and arrays open as
    /// lists of what they hold (a key's dictionary too); everything else as its detail.
    public var destination: InspectorDestination {
        switch target {
        case .scanner(let id): return .level(.containers(scanner: id))
        case .container(let scanner, let name): return .level(.keys(scanner: scanner, container: name))
        case .key(let address):
            let whole = JSONPointer(tokens: [])
            return isOpenable ? .level(.value(address, whole)) : .detail(address, whole)
        case .member(let address, let pointer):
            return isOpenable ? .level(.value(address, pointer)) : .detail(address, pointer)
        }
    }

    /// The marks a face prints beside the value, in order: every flag but ``Flag/changed``
    /// (drawn as a highlight) and ``Flag/unset`` (the preview says it), with an encoded value
    /// named by its encoding (`json`, `plist`).
    public var labels: [String] {
        flags.compactMap { flag in
            switch flag {
            case .changed, .unset: return nil
            case .encoded: return encoding?.rawValue ?? flag.rawValue
            default: return flag.rawValue
            }
        }
    }
}
