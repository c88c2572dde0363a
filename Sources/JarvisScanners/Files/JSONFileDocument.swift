import Foundation
import JarvisCore

/// One JSON config file as read from disk: its top-level object in file order.
///
/// Plain JSON is read by the strict parser (the quickest path); a file it refuses (one with
/// comments, trailing commas or a byte-order mark, or an invalid one) is read again as JSONC,
/// which either accepts it or names the problem with its line and column.
struct JSONFileDocument {
    /// The largest file the scanner reads; a config file bigger than this is reported, not read.
    static let maxSize = 16 << 20
    /// The deepest nesting read: the top-level object and values up to the deepest the wire
    /// can carry back, so every value served can be written back.
    static let maxDepth = PreferenceValue.maxDepth + 1

    /// The top-level members, in file order.
    var object: JSONObject
    /// The entries the scanner reports for the top-level members, sorted by key, made once
    /// per version of the file: every reader (a listing streamed to each of many clients)
    /// shares this one array instead of converting the file again. A member holding a `null`
    /// is inexact but still writable here: the hub keeps its stand-in from being stored, and
    /// lets the member be replaced whole or removed.
    let entries: [ScannedEntry]
    /// What the document holds in memory, roughly: its entries and the members they were
    /// made from (as large).
    let weight: Int

    /// Parses file contents, whose values may take in memory what ``ExpansionBudget`` allows
    /// a file of their size.
    /// - Throws: ``JarvisError`` `.storage` with the parse error and its line, when the top
    ///   level is not an object, or when the values would take more than the budget.
    init(bytes: [UInt8]) throws(JarvisError) {
        try Self.checkSize(bytes)
        let object: JSONObject
        var budget = ExpansionBudget(fileSize: bytes.count)
        if !bytes.starts(with: [0xEF, 0xBB, 0xBF]),
            let json = try? JSONParser.parse(bytes, maxDepth: Self.maxDepth, budget: &budget)
        {
            object = try Self.topLevelObject(json)
        } else {
            guard !budget.isPassed else { throw Self.tooLarge(budget) }
            object = try Self.topLevelObject(try Self.syntaxTree(bytes).root.value)
        }
        self.object = object
        entries = object.map(Self.entry).sorted { $0.key < $1.key }
        weight = 2 * entries.reduce(0) { $0 + $1.weight }
    }

    /// The entry of one top-level member, as ``entries`` holds it; nil when there is none.
    func entry(_ key: String) -> ScannedEntry? {
        object[key].map { Self.entry(key, $0) }
    }

    private static func entry(_ key: String, _ value: JSONValue) -> ScannedEntry {
        let (converted, isExact) = JSONFileValue.preferenceValue(value)
        return ScannedEntry(key: key, value: converted, isExact: isExact)
    }

    /// The file's syntax tree, for editing.
    /// - Throws: ``JarvisError`` `.storage` as ``init(bytes:)``.
    static func syntaxTree(_ bytes: [UInt8]) throws(JarvisError) -> JSONSyntaxTree {
        try checkSize(bytes)
        let tree: JSONSyntaxTree
        var budget = ExpansionBudget(fileSize: bytes.count)
        do {
            // The top-level object and values up to the deepest the wire can carry back.
            tree = try JSONSyntaxTree(bytes, maxDepth: Self.maxDepth, budget: &budget)
        } catch {
            guard !budget.isPassed else { throw tooLarge(budget) }
            throw JarvisError(
                .storage, "not valid JSON: \(error.description); fix the file (Jarvis never writes over it)")
        }
        guard case .object = tree.root.content else { throw notAnObject(tree.root.value) }
        return tree
    }

    private static func checkSize(_ bytes: [UInt8]) throws(JarvisError) {
        guard bytes.count <= maxSize else {
            throw JarvisError(.storage, "the file is larger than \(maxSize >> 20) MiB; Jarvis does not read it")
        }
    }

    private static func topLevelObject(_ json: JSONValue) throws(JarvisError) -> JSONObject {
        guard case .object(let object) = json else { throw notAnObject(json) }
        return object
    }

    /// Why a file whose values would take more than its budget is not read.
    private static func tooLarge(_ budget: ExpansionBudget) -> JarvisError {
        JarvisError(
            .storage,
            "the file \(budget.excess(counting: "each value, and its text, as it is read")); Jarvis does not read it")
    }

    private static func notAnObject(_ json: JSONValue) -> JarvisError {
        JarvisError(
            .storage,
            "the top level is \(Self.kind(json)), not an object; Jarvis shows JSON files whose top level is an object of keys"
        )
    }

    private static func kind(_ json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
