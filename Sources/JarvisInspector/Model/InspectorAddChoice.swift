import Foundation
import JarvisCore
import JarvisRemote

/// A place a new key may go, as an add sheet or prompt offers it: a container that accepts
/// writes, the types it can store, and the keys its catalog declares that are not set yet.
public struct InspectorAddChoice: Sendable, Hashable, Identifiable {
    /// A key the catalog declares with nothing stored: offered before any free name.
    public struct Suggestion: Sendable, Hashable {
        /// The key's name.
        public var key: String
        /// The type the catalog declares.
        public var type: PreferenceType
        /// What the catalog says about it, if anything.
        public var description: String?
    }

    /// The scanner of the container.
    public var scanner: String
    /// The container's name.
    public var container: String
    /// The types the container can store, in the order a picker lists them.
    public var types: [PreferenceType]
    /// Catalogued keys with nothing stored, by name.
    public var suggestions: [Suggestion]
    /// The choice's identity: scanner and container.
    public var id: String { scanner + "\u{0}" + container }
    /// The label a picker shows: `app.json (files)`.
    public var title: String { "\(container) (\(scanner))" }
}

extension InspectorState {
    /// Where a new key may be added (one scanner's containers, or all): only containers that
    /// accept writes and can be read, in an agent that allows editing; containers whose
    /// catalog declares unset keys first, then by name.
    public func addChoices(scanner: String? = nil) -> [InspectorAddChoice] {
        guard canEdit else { return [] }
        let writableScanners = Set(scanners.filter { $0.writable && $0.available }.map(\.id))
        var unset: [String: [InspectorAddChoice.Suggestion]] = [:]
        for item in items.values where Self.isUnset(item) && item.isWritable {
            unset[item.address.scanner + "\u{0}" + item.address.container, default: []].append(
                .init(key: item.address.key, type: item.type, description: item.catalog?.description))
        }
        let choices = scanners.filter { scanner == nil || $0.id == scanner }.flatMap { owner in
            containers(of: owner.id).compactMap { container -> InspectorAddChoice? in
                guard writableScanners.contains(owner.id), container.writable, container.problem == nil else {
                    return nil
                }
                let id = owner.id + "\u{0}" + container.name
                return InspectorAddChoice(
                    scanner: owner.id, container: container.name, types: Self.types(for: owner),
                    suggestions: (unset[id] ?? []).sorted { $0.key.naturallyBefore($1.key) })
            }
        }
        return choices.sorted {
            ($0.suggestions.isEmpty ? 1 : 0, $0.container, $0.scanner) < (
                $1.suggestions.isEmpty ? 1 : 0, $1.container, $1.scanner
            )
        }
    }

    /// The types a scanner's containers can store, as the agent says in `scanners`; every
    /// type when it does not say (an older agent, a scanner that keeps any value).
    public static func types(for scanner: Wire.Scanner) -> [PreferenceType] {
        guard let types = scanner.types else { return PreferenceType.allCases }
        return PreferenceType.allCases.filter(types.contains)
    }

    /// The types a container of `scanner` can store; every type for a scanner not listed.
    public func types(scanner: String) -> [PreferenceType] {
        scanners.first { $0.id == scanner }.map(Self.types) ?? PreferenceType.allCases
    }
}

extension ValueDraft {
    /// The text a new value of `type` starts from: something the editor can save as it is,
    /// so a new date starts at the current second (never an empty, unsaveable field).
    public static func initialText(for type: PreferenceType, now: Date = Date()) -> String {
        switch type {
        case .string, .data: return ""
        case .integer: return "0"
        case .real: return "0.0"
        case .boolean: return "false"
        case .date:
            return ValueFormat.editText(.date(Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))))
        case .array: return "[]"
        case .dictionary: return "{}"
        }
    }
}
