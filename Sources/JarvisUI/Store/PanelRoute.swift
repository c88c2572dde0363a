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

        /// Where a row leads, as the model decides (``InspectorRow/destination``); nil for a
        /// scanner, which the home screen shows as a segment.
        init?(_ row: InspectorRow) {
            switch row.destination {
            case .level(.keys(let scanner, let container)): self = .container(scanner: scanner, name: container)
            case .level(.value(let address, let pointer)): self = .members(address, pointer)
            case .level(.scanners), .level(.containers): return nil
            case .detail(let address, let pointer): self = .detail(address, pointer)
            }
        }
    }
#endif
