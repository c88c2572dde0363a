import Foundation
import JarvisCore

/// A versioned, lossless copy of an agent's stored values, for `jarvis export`, `import` and
/// `diff`: `{"format":"jarvis-snapshot","version":1,"agent":{…},"exported":"<ISO 8601>","items":[…]}`
/// with items in the wire shape of `docs/PROTOCOL.md`, so every type survives (nested dates
/// and data included).
///
/// A snapshot holds stored values only: registered defaults are not the program's data, and
/// masked secrets are left out (export with reveal, where the agent allows it, to keep them).
/// Their addresses are kept in `leftOut` (`"leftOut":[{"scanner","container","key"}]`, written
/// only when there are some), so a diff against the agent says they were not compared instead
/// of calling them added.
public struct JarvisSnapshot: Sendable, Hashable {
    /// The `format` field; anything else is not a snapshot.
    public static let format = "jarvis-snapshot"
    /// The newest `version` this build reads and the one it writes.
    public static let version = 1

    /// Who the values came from: `name`, `pid`, `platform` as the agent said in `hello`.
    public var agent: JSONObject
    /// When the snapshot was taken.
    public var exported: Date
    /// The values, sorted by scanner, container and key.
    public var items: [PreferenceItem]
    /// The masked secrets left out of `items`, sorted like them: present in the agent, values
    /// unknown to the snapshot.
    public var leftOut: [PreferenceAddress]

    /// Creates a snapshot; items are sorted so equal snapshots write equal bytes.
    public init(agent: JSONObject, exported: Date, items: [PreferenceItem], leftOut: [PreferenceAddress] = []) {
        self.agent = agent
        self.exported = exported
        self.items = items.sorted(by: Self.order)
        self.leftOut = leftOut.sorted { ($0.scanner, $0.container, $0.key) < ($1.scanner, $1.container, $1.key) }
    }

    /// Scanner, then container, then key.
    public static func order(_ left: PreferenceItem, _ right: PreferenceItem) -> Bool {
        (left.address.scanner, left.address.container, left.address.key)
            < (right.address.scanner, right.address.container, right.address.key)
    }

    /// The document.
    public var json: JSONValue {
        var document: JSONObject = [
            "format": .string(Self.format),
            "version": .number(JSONNumber(Int64(Self.version))),
            "agent": .object(agent),
            "exported": .string(DateText.format(exported)),
            "items": .array(items.map(WireItem.encode)),
        ]
        if !leftOut.isEmpty {
            document["leftOut"] = .array(
                leftOut.map {
                    ["scanner": .string($0.scanner), "container": .string($0.container), "key": .string($0.key)]
                })
        }
        return .object(document)
    }

    /// The document as pretty JSON text with a final newline.
    public var text: String { JSONWriter.string(json, pretty: true) + "\n" }

    /// Reads a snapshot document.
    /// - Throws: ``JarvisError`` `.invalidParams` naming what is wrong: not JSON, not a
    ///   snapshot, a newer version, or an item that cannot be read (with its position).
    public init(parsing bytes: [UInt8], source: String = "the snapshot") throws(JarvisError) {
        let json: JSONValue
        do {
            // The document, its items array and an item around the deepest value's encoding.
            json = try JSONParser.parse(bytes, maxDepth: PreferenceValue.maxWireDepth + 3)
        } catch {
            throw JarvisError(.invalidParams, "\(source) is not JSON: \(error.description)")
        }
        guard json["format"]?.stringValue == Self.format else {
            throw JarvisError(
                .invalidParams,
                "\(source) is not a Jarvis snapshot (its \"format\" is not \"\(Self.format)\"); make one with `jarvis export`"
            )
        }
        guard let version = json["version"]?.int64Value, version >= 1 else {
            throw JarvisError(.invalidParams, "\(source) has no valid \"version\"")
        }
        guard version <= Self.version else {
            throw JarvisError(
                .invalidParams,
                "\(source) is snapshot version \(version); this jarvis reads up to \(Self.version), so update jarvis")
        }
        var items: [PreferenceItem] = []
        for (index, raw) in (json["items"]?.arrayValue ?? []).enumerated() {
            guard case .object(var object) = raw else {
                throw JarvisError(.invalidParams, "\(source): item \(index + 1) is not an object")
            }
            do throws(JarvisError) {
                // A hand-written item may leave the revision out; it follows from the value.
                if object["revision"] == nil,
                    let type = object["type"]?.stringValue.flatMap(PreferenceType.init(rawValue:)),
                    let value = object["value"]
                {
                    object["revision"] = .string(Revision(of: try PreferenceValue(json: value, as: type)).text)
                }
                let item = try WireItem.decode(.object(object))
                guard item.value != nil else {
                    throw JarvisError(.invalidParams, "it has no value")
                }
                items.append(item)
            } catch {
                throw JarvisError(.invalidParams, "\(source): item \(index + 1) cannot be read: \(error.message)")
            }
        }
        var leftOut: [PreferenceAddress] = []
        for (index, raw) in (json["leftOut"]?.arrayValue ?? []).enumerated() {
            guard let scanner = raw["scanner"]?.stringValue, let container = raw["container"]?.stringValue,
                let key = raw["key"]?.stringValue
            else {
                throw JarvisError(
                    .invalidParams, "\(source): leftOut entry \(index + 1) needs \"scanner\", \"container\" and \"key\"")
            }
            leftOut.append(PreferenceAddress(scanner: scanner, container: container, key: key))
        }
        let exported = json["exported"]?.stringValue.flatMap(DateText.parse) ?? Date(timeIntervalSince1970: 0)
        self.init(agent: json["agent"]?.objectValue ?? [:], exported: exported, items: items, leftOut: leftOut)
    }

    /// The items whose address matches the filters (globs, as `list` takes them).
    public func filtered(scanner: String?, container: String?, key: String?) -> [PreferenceItem] {
        let matches = Self.matcher(scanner: scanner, container: container, key: key)
        return items.filter { matches($0.address) }
    }

    /// The left-out addresses that match the filters, as ``filtered(scanner:container:key:)``.
    public func leftOut(scanner: String?, container: String?, key: String?) -> [PreferenceAddress] {
        leftOut.filter(Self.matcher(scanner: scanner, container: container, key: key))
    }

    private static func matcher(scanner: String?, container: String?, key: String?) -> (PreferenceAddress) -> Bool {
        let containerPattern = container.map { GlobPattern($0) }
        let keyPattern = key.map { GlobPattern($0) }
        return { address in
            (scanner == nil || address.scanner == scanner)
                && (containerPattern?.matches(address.container) ?? true)
                && (keyPattern?.matches(address.key) ?? true)
        }
    }
}
