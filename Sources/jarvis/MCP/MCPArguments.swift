import JarvisCore
import JarvisRemote

/// A tool call's arguments, already checked against the tool's input schema.
struct MCPArguments: Sendable {
    let object: JSONObject

    init(_ object: JSONObject) {
        self.object = object
    }

    /// A string argument.
    func string(_ name: String) -> String? { object[name]?.stringValue }

    /// A boolean argument.
    func bool(_ name: String) -> Bool? { object[name]?.boolValue }

    /// An integer argument.
    func int(_ name: String) -> Int? { object[name]?.int64Value.map { Int($0) } }

    /// A list of strings; empty when absent (the schema checked each element).
    func strings(_ name: String) -> [String] { object[name]?.arrayValue?.compactMap(\.stringValue) ?? [] }

    /// The key the `scanner`, `container`, `key` and (with `pointer`) `pointer` arguments
    /// name; an empty pointer is the whole value, as the agent reads it.
    /// - Throws: ``JarvisError`` `.invalidParams` for a malformed pointer.
    func place(pointer withPointer: Bool = true) throws(JarvisError) -> Wire.Place {
        let text = withPointer ? string("pointer") ?? "" : ""
        return Wire.Place(
            scanner: string("scanner"), container: string("container") ?? "", key: string("key") ?? "",
            pointer: text.isEmpty ? nil : try JSONPointer(parsing: text))
    }

    /// The `type` argument.
    /// - Throws: ``JarvisError`` `.invalidParams` for a name that is no preference type.
    func type() throws(JarvisError) -> PreferenceType? {
        guard let name = string("type") else { return nil }
        guard let type = PreferenceType(rawValue: name) else {
            throw JarvisError(
                .invalidParams,
                "'\(name)' is not a type; use one of \(PreferenceType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return type
    }

    /// The `expectedRevision` argument.
    func revision() -> Revision? { string("expectedRevision").map(Revision.init) }
}
