import Foundation
import JarvisCore

/// What a face offers to copy about a key or a member inside it: the key, the value as
/// text, the JSON Pointer of the place, and the `jarvis set` command that makes the same
/// change from a shell.
public struct InspectorCopy: Sendable, Hashable {
    /// The key's name.
    public var key: String
    /// The value as an editor shows it; nil when masked or unset.
    public var value: String?
    /// The place as a JSON Pointer starting with the key (`/profile/tags/0`).
    public var pointer: String
    /// `jarvis set …` that stores this value at this place; nil when there is no value to copy.
    public var command: String?
}

extension InspectorState {
    /// The texts to copy for a key or a member; nil when it is gone.
    /// - Parameter agent: the `--agent` to put in the command (nil: none, the only agent).
    public func copyTexts(for target: InspectorRow.Target, agent: String? = nil) -> InspectorCopy? {
        guard let address = target.address, shown(address) != nil else { return nil }
        let pointer = target.pointer
        let place = JSONPointer(tokens: [address.key] + pointer.tokens).description
        let value = self.value(at: address, pointer)
        let command = value.map { value -> String in
            var words = ["jarvis", "set"]
            if let agent { words += ["--agent", Self.shellQuoted(agent)] }
            let name = pointer.isWhole && !address.key.hasPrefix("/") ? address.key : place
            words += [Self.shellQuoted(address.scanner + ":" + address.container), Self.shellQuoted(name)]
            switch value.type {
            case .array, .dictionary:
                words += [Self.shellQuoted(JSONWriter.string(value.json)), "--type", "json"]
            default:
                words.append(Self.shellQuoted(ValueFormat.editText(value)))
                words.append(Self.typeFlag(value.type))
            }
            return words.joined(separator: " ")
        }
        return InspectorCopy(
            key: address.key, value: value.map(ValueFormat.editText), pointer: place, command: command)
    }

    static func typeFlag(_ type: PreferenceType) -> String {
        switch type {
        case .string: "--string"
        case .integer: "--int"
        case .real: "--real"
        case .boolean: "--bool"
        case .date: "--date"
        case .data: "--data"
        case .array, .dictionary: "--type json"
        }
    }

    /// A word a POSIX shell reads back unchanged: bare when it is plainly safe, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                (scalar.value >= 48 && scalar.value <= 57) || (scalar.value >= 65 && scalar.value <= 90)
                    || (scalar.value >= 97 && scalar.value <= 122) || "-_./:@%+=,".unicodeScalars.contains(scalar)
            }
        if safe { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
