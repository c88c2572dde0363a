/// A JSON object that remembers the order its members were written in.
///
/// Users' config files are edited in place, so reading and writing one must not shuffle its
/// keys. Lookups stay O(1) on average: small objects (the common case in RPC messages) are
/// searched linearly, which is faster than hashing a handful of keys, and larger ones keep
/// a key-to-position index beside the ordered members.
///
/// Equality and hashing ignore order: two objects are equal when they have the same keys
/// with equal values, as RFC 8259 says objects are unordered.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member; a named struct keeps the storage a single array.
    struct Member: Sendable {
        var key: String
        var value: JSONValue
    }

    /// Objects up to this size are searched linearly and carry no index.
    private static let indexThreshold = 16

    private var members: [Member] = []
    // Maps each key to its position in `members`; nil while the object is small.
    private var positions: [String: Int]?

    /// An empty object.
    public init() {}

    /// An object with `pairs` in order; a repeated key keeps its first position and its
    /// last value, the same as assigning the pairs one by one.
    public init(_ pairs: [(String, JSONValue)]) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// An object from a literal, in the literal's order; a repeated key keeps its last value
    /// instead of trapping like `Dictionary` does.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The member named `key`. Assigning to an existing key replaces its value in place,
    /// keeping its position; assigning a new key appends it; assigning nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = index(forKey: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                if let position = index(forKey: key) {
                    members[position].value = newValue
                } else {
                    appendNewMember(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The values in key order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The position of `key` in the member order, or nil when it is absent.
    public func index(forKey key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    /// Removes the member named `key`, keeping the others in order; O(n).
    ///
    /// - Returns: The removed value, or nil when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = index(forKey: key) else { return nil }
        let removed = members.remove(at: position).value
        if positions != nil {
            if members.count <= Self.indexThreshold {
                positions = nil
            } else {
                positions?[key] = nil
                for shifted in position..<members.count {
                    positions?[members[shifted].key] = shifted
                }
            }
        }
        return removed
    }

    /// Appends a member whose key the caller has checked is absent (the parser does, so it
    /// can report duplicates with their position).
    mutating func appendNewMember(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
        if positions != nil {
            positions?[key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            var index = [String: Int](minimumCapacity: members.count * 2)
            for (position, member) in members.enumerated() {
                index[member.key] = position
            }
            positions = index
        }
    }

    /// Reserves room for `capacity` members.
    public mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    // MARK: - Sequence

    /// Walks the members in order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Member]>

        /// The next member, or nil after the last.
        public mutating func next() -> (key: String, value: JSONValue)? {
            guard let member = base.next() else { return nil }
            return (member.key, member.value)
        }
    }

    /// An iterator over the members in order.
    public func makeIterator() -> Iterator {
        Iterator(base: members.makeIterator())
    }

    /// The member count, so `Array(object)` allocates once.
    public var underestimatedCount: Int { members.count }

    // MARK: - Hashable

    /// True when both objects have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Hashes the members without regard to order, matching `==`.
    public func hash(into hasher: inout Hasher) {
        // Summing per-member hashes is commutative, so member order cannot change the result.
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}
