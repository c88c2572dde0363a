import Foundation
import JarvisCore

/// The few file reads the Simulator model makes, each turning a failure into a reason.
package enum SimulatorFiles {
    /// The folders directly in `parent` (hidden ones and plain files ignored), sorted by name.
    /// A missing parent is no folders; an unreadable one is skipped with its reason.
    package static func subfolders(of parent: URL, skipped: inout [SimulatorSkip]) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: parent.path)
        } catch {
            if FileManager.default.fileExists(atPath: parent.path) {
                skipped.append(
                    SimulatorSkip(path: parent.path, reason: "cannot be listed: \(error.localizedDescription)"))
            }
            return []
        }
        return names.sorted().compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let url = parent.appendingPathComponent(name, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { return nil }
            return url
        }
    }

    /// A property list file whose top level is a dictionary (binary or XML), read with
    /// Jarvis's own codec.
    package static func dictionary(at file: URL) -> Result<[String: PropertyList], SimulatorSkip> {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let reason =
                FileManager.default.fileExists(atPath: file.path) ? "cannot be read" : "missing"
            return .failure(SimulatorSkip(path: file.path, reason: reason))
        }
        let document: PropertyListDocument
        do {
            document = try PropertyListDocument([UInt8](data))
        } catch {
            let notDictionary = error.code == .unsupported && error.message.hasPrefix("the file holds")
            return .failure(
                SimulatorSkip(
                    path: file.path, reason: notDictionary ? "not a dictionary property list" : "not a property list"))
        }
        var dictionary: [String: PropertyList] = [:]
        for member in document.members { dictionary[member.key] = member.value }
        return .success(dictionary)
    }

    /// A plist integer as an `Int`; nil for anything else.
    package static func integer(_ value: PropertyList?) -> Int? {
        guard case .integer(let integer) = value else { return nil }
        return Int(exactly: integer)
    }

    /// A plist string; nil for anything else.
    package static func string(_ value: PropertyList?) -> String? {
        guard case .string(let text) = value else { return nil }
        return text
    }
}
