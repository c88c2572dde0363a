#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector

    /// Where the panel's navigation can go.
    enum PanelRoute: Hashable {
        /// The keys of one container.
        case container(scanner: String, name: String)
        /// The members of a dictionary or array inside a key (empty pointer: the key itself).
        case members(PreferenceAddress, JSONPointer)
        /// One key's or member's detail and editor.
        case detail(PreferenceAddress, JSONPointer)

        /// Where a row leads: containers and nested values open as lists, the rest as detail.
        init?(_ row: InspectorRow) {
            switch row.target {
            case .scanner: return nil
            case .container(let scanner, let name): self = .container(scanner: scanner, name: name)
            case .key(let address):
                self = .detail(address, JSONPointer(tokens: []))
            case .member(let address, let pointer):
                self = row.isOpenable ? .members(address, pointer) : .detail(address, pointer)
            }
        }
    }
#endif
