import JarvisCore

extension Context {
    /// The params that name one key, or one place inside a key's value: a KEY argument that
    /// starts with `/` is a JSON Pointer whose first token is the key (`/server/port` is the
    /// key `server`, pointer `/port`). A key whose name starts with `/` is written `/~1name`.
    func itemParams(container text: String, key argument: String) throws(JarvisError) -> JSONObject {
        guard argument.hasPrefix("/") else { return try addressParams(container: text, key: argument) }
        let pointer = try JSONPointer(parsing: argument)
        guard let key = pointer.tokens.first, !key.isEmpty else {
            throw JarvisError(
                .invalidParams, "the pointer '\(argument)' names no key; write /KEY/… (e.g. /server/port)")
        }
        var params = try addressParams(container: text, key: key)
        let inner = pointer.droppingFirst
        if !inner.isWhole { params["pointer"] = .string(inner.description) }
        return params
    }

    /// How the CLI prints an item's place: `scanner:container key` or `scanner:container /key/pointer`.
    static func place(_ item: PreferenceItem) -> String {
        let prefix = "\(item.address.scanner):\(item.address.container) "
        guard let pointer = item.pointer else { return prefix + item.address.key }
        return prefix + JSONPointer(tokens: [item.address.key] + pointer.tokens).description
    }
}
