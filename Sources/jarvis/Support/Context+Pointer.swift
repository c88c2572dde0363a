import JarvisCore
import JarvisRemote

extension Context {
    /// The place that names one key, or one place inside a key's value: a KEY argument that
    /// starts with `/` is a JSON Pointer whose first token is the key (`/server/port` is the
    /// key `server`, pointer `/port`). A key whose name starts with `/` is written `/~1name`.
    func itemPlace(container text: String, key argument: String) throws(JarvisError) -> Wire.Place {
        guard argument.hasPrefix("/") else { return try keyPlace(container: text, key: argument) }
        let pointer = try JSONPointer(parsing: argument)
        guard let key = pointer.tokens.first, !key.isEmpty else {
            throw JarvisError(
                .invalidParams, "the pointer '\(argument)' names no key; write /KEY/… (e.g. /server/port)")
        }
        var place = try keyPlace(container: text, key: key)
        let inner = pointer.droppingFirst
        if !inner.isWhole { place.pointer = inner }
        return place
    }

    /// How the CLI prints an item's place: `scanner:container key` or
    /// `scanner:container /key/pointer`, escaped for the terminal.
    static func place(_ item: PreferenceItem) -> String {
        let prefix = "\(item.address.scanner):\(item.address.container) "
        guard let pointer = item.pointer else { return Terminal.escaped(prefix + item.address.key) }
        return Terminal.escaped(prefix + JSONPointer(tokens: [item.address.key] + pointer.tokens).description)
    }
}
