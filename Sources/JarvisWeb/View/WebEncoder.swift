import JarvisCore

/// Turns the page's `Encodable` view types into ``JSONValue``: members in the order their
/// coding keys declare, and an absent optional as `null` (the page tells "none" from "not
/// sent", so every field of the contract is always there).
enum WebEncoder {
    /// `value` as JSON; a value that fails to encode (none of the page's types can) is `null`.
    static func encode<T: Encodable>(_ value: T) -> JSONValue {
        let node = Node()
        do {
            try value.encode(to: TreeEncoder(node))
        } catch {
            return .null
        }
        return node.json
    }

    /// One place of the tree being built. Members and elements are appended in place: a
    /// window of 200 rows of ten fields each builds each array and object once, where taking
    /// them out of an enum's payload to append copied them on every member (a window cost twice
    /// what it does now).
    fileprivate final class Node {
        enum Kind {
            case empty
            case leaf
            case object
            case array
        }

        private(set) var kind = Kind.empty
        private var leaf = JSONValue.null
        private var keys: [String] = []
        private var members: [Node] = []
        private var elements: [Node] = []

        var json: JSONValue {
            switch kind {
            case .empty: return .null
            case .leaf: return leaf
            case .array: return .array(elements.map(\.json))
            case .object:
                var object = JSONObject()
                object.reserveCapacity(keys.count)
                for (key, member) in zip(keys, members) { object[key] = member.json }
                return .object(object)
            }
        }

        func set(_ value: JSONValue) {
            kind = .leaf
            leaf = value
        }

        func child(_ key: String) -> Node {
            makeObject()
            // A type's coding keys are few: a scan finds one encoded twice.
            if let index = keys.firstIndex(of: key) { return members[index] }
            let node = Node()
            keys.append(key)
            members.append(node)
            return node
        }

        func makeObject() {
            guard kind != .object else { return }
            kind = .object
            keys.removeAll()
            members.removeAll()
        }

        func makeArray() {
            kind = .array
            elements.removeAll()
        }

        func append() -> Node {
            if kind != .array { makeArray() }
            let node = Node()
            elements.append(node)
            return node
        }

        var count: Int { kind == .array ? elements.count : 0 }
    }
}

private struct TreeEncoder: Encoder {
    let node: WebEncoder.Node
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ node: WebEncoder.Node) { self.node = node }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array { node.makeArray() }
        return UnkeyedContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: node) }
}

/// A value as JSON when it is one of the scalars the page's types hold; nil otherwise.
private func scalar(_ value: Any) -> JSONValue? {
    switch value {
    case let text as String: .string(text)
    case let flag as Bool: .bool(flag)
    case let number as Int: .number(JSONNumber(number))
    case let number as Int64: .number(JSONNumber(number))
    case let number as Double: JSONNumber(number).map(JSONValue.number) ?? .null
    default: nil
    }
}

private func put<T: Encodable>(_ value: T, in node: WebEncoder.Node) throws {
    if let json = scalar(value) {
        node.set(json)
    } else {
        try value.encode(to: TreeEncoder(node))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: WebEncoder.Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try put(value, in: node.child(key.stringValue))
    }

    // An absent optional is written as null, never left out.
    private mutating func orNull<T: Encodable>(_ value: T?, _ key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try orNull(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try orNull(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try orNull(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try orNull(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try orNull(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try orNull(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.child(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(key.stringValue)
        child.makeArray()
        return UnkeyedContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node.child("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node.child(key.stringValue)) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: WebEncoder.Node
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append().set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try put(value, in: node.append()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.append()
        child.makeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.append()
        child.makeArray()
        return UnkeyedContainer(node: child)
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node.append()) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: WebEncoder.Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try put(value, in: node) }
}
