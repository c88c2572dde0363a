import Foundation

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

    /// A property list file whose top level is a dictionary (binary, XML or OpenStep).
    package static func dictionary(at file: URL) -> Result<[String: Any], SimulatorSkip> {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let reason =
                FileManager.default.fileExists(atPath: file.path) ? "cannot be read" : "missing"
            return .failure(SimulatorSkip(path: file.path, reason: reason))
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            return .failure(SimulatorSkip(path: file.path, reason: "not a property list"))
        }
        guard let dictionary = object as? [String: Any] else {
            return .failure(SimulatorSkip(path: file.path, reason: "not a dictionary property list"))
        }
        return .success(dictionary)
    }

    /// A plist number as an `Int`, whichever way Foundation bridged it.
    package static func integer(_ object: Any?) -> Int? {
        switch object {
        case let value as Int: value
        case let value as NSNumber: value.intValue
        default: nil
        }
    }
}
