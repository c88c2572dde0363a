import JarvisCore

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

    /// The named arguments that were given, as agent params of the same names.
    func params(_ names: [String]) -> JSONObject {
        var params = JSONObject()
        for name in names { if let value = object[name] { params[name] = value } }
        return params
    }
}
