import JarvisCore

/// Where ``WireItem/describe(_:into:)`` puts an item's members, one call per member in wire
/// order. Member names are plain ASCII words that need no escaping.
protocol WireItemSink {
    /// A string member.
    mutating func string(_ name: StaticString, _ text: String)
    /// A member holding `true`.
    mutating func flag(_ name: StaticString)
    /// A whole-number member.
    mutating func integer(_ name: StaticString, _ number: Int)
    /// A value in the wire encoding (``PreferenceValue/json``).
    mutating func value(_ name: StaticString, _ value: PreferenceValue)
    /// A revision, as its text.
    mutating func revision(_ name: StaticString, _ revision: Revision)
    /// Any other JSON.
    mutating func json(_ name: StaticString, _ json: JSONValue)
}

extension StaticString {
    /// The text, for a member name of a JSON tree.
    var text: String { withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
}

/// Builds the item as a JSON tree.
struct TreeSink: WireItemSink {
    var object = JSONObject()

    mutating func string(_ name: StaticString, _ text: String) { object[name.text] = .string(text) }
    mutating func flag(_ name: StaticString) { object[name.text] = .bool(true) }
    mutating func integer(_ name: StaticString, _ number: Int) { object[name.text] = .number(JSONNumber(number)) }
    mutating func value(_ name: StaticString, _ value: PreferenceValue) { object[name.text] = value.json }
    mutating func revision(_ name: StaticString, _ revision: Revision) { object[name.text] = .string(revision.text) }
    mutating func json(_ name: StaticString, _ json: JSONValue) { object[name.text] = json }
}

/// Writes the item as compact JSON, as ``JSONWriter`` writes the tree ``TreeSink`` builds
/// (its members in the order they came).
struct ByteSink: WireItemSink {
    /// What is written so far; the object is open until ``close()``.
    var line: [UInt8] = []
    private var first = true

    /// Closes the object.
    mutating func close() {
        if first { line.append(UInt8(ascii: "{")) }
        line.append(UInt8(ascii: "}"))
    }

    /// `{"name":` or `,"name":`.
    private mutating func name(_ name: StaticString) {
        line.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        line.append(UInt8(ascii: "\""))
        JSONWriter.writeRaw(name, into: &line)
        line.append(UInt8(ascii: "\""))
        line.append(UInt8(ascii: ":"))
    }

    mutating func string(_ name: StaticString, _ text: String) {
        self.name(name)
        JSONWriter.writeString(text, into: &line)
    }

    mutating func flag(_ name: StaticString) {
        self.name(name)
        JSONWriter.writeRaw("true", into: &line)
    }

    mutating func integer(_ name: StaticString, _ number: Int) {
        self.name(name)
        line.append(contentsOf: String(number).utf8)
    }

    mutating func value(_ name: StaticString, _ value: PreferenceValue) {
        self.name(name)
        // Most values are strings: written without a tree.
        if case .string(let text) = value {
            JSONWriter.writeString(text, into: &line)
        } else {
            JSONWriter.write(value.json, into: &line)
        }
    }

    mutating func revision(_ name: StaticString, _ revision: Revision) {
        self.name(name)
        revision.writeJSON(into: &line)
    }

    mutating func json(_ name: StaticString, _ json: JSONValue) {
        self.name(name)
        JSONWriter.write(json, into: &line)
    }
}
