import JarvisCore

/// `get`, `set`, `delete` and `reset`: one key, or one place inside a key's value.
extension Wire {
    /// Which key a request names, and optionally a place inside its value.
    public struct Place: Sendable, Hashable {
        /// The scanner; nil lets the agent find the one scanner that has the container.
        public var scanner: String?
        /// The container.
        public var container: String
        /// The key.
        public var key: String
        /// A place inside the key's value; nil (or a whole pointer) for the whole value.
        public var pointer: JSONPointer?

        /// A place; without `scanner` the agent finds the scanner that has `container`.
        public init(scanner: String? = nil, container: String, key: String, pointer: JSONPointer? = nil) {
            self.scanner = scanner
            self.container = container
            self.key = key
            self.pointer = pointer
        }

        /// The whole value of `address`, or a place inside it.
        public init(_ address: PreferenceAddress, pointer: JSONPointer? = nil) {
            self.init(scanner: address.scanner, container: address.container, key: address.key, pointer: pointer)
        }

        /// `"scanner"?,"container","key","pointer"?`, in that order.
        func write(into object: inout JSONObject, pointer withPointer: Bool = true) {
            object.setIfPresent("scanner", scanner.map(JSONValue.string))
            object["container"] = .string(container)
            object["key"] = .string(key)
            if withPointer, let pointer, !pointer.isWhole { object["pointer"] = .string(pointer.description) }
        }

        /// Reads the place of a request; an empty pointer is the whole value.
        package init(_ params: WireFields<RPCError>, pointer withPointer: Bool = true) throws(RPCError) {
            scanner = try params.optionalString("scanner")
            container = try params.string("container")
            key = try params.string("key")
            pointer = withPointer ? try Self.pointer(params) : nil
        }

        /// The `pointer` param; nil when absent or empty, `invalidParams` when malformed.
        package static func pointer(_ params: WireFields<RPCError>) throws(RPCError) -> JSONPointer? {
            guard let text = try params.optionalString("pointer"), !text.isEmpty else { return nil }
            do {
                return try JSONPointer(parsing: text)
            } catch {
                throw .invalidParams(error.message)
            }
        }
    }

    /// The params of `get`.
    public struct GetParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.get.rawValue
        /// What to read.
        public var place: Place
        /// Ask for a secret's value, where the agent allows it.
        public var reveal: Bool

        /// Params reading `place`.
        public init(_ place: Place, reveal: Bool = false) {
            self.place = place
            self.reveal = reveal
        }

        /// `{"scanner"?,"container","key","pointer"?,"reveal"?}`
        public var json: JSONObject {
            var object = JSONObject()
            place.write(into: &object)
            if reveal { object["reveal"] = true }
            return object
        }

        /// The params a `get` may carry, built once rather than per request.
        private static let allowed: Set<String> = ["scanner", "container", "key", "pointer", "reveal"]

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(params: raw, method: .get, allowed: Self.allowed)
            place = try Place(params)
            reveal = try params.optionalBool("reveal") ?? false
        }

        /// Reads a flat `get` line (``FlatRequest``) without building a JSON tree: its id, and
        /// its params as ``init(params:)`` reads the same params. Nil when the line is not a
        /// flat `get` or ``init(params:)`` would refuse its params, so that the full decoder
        /// reads it and gives its usual error.
        package static func flat(_ line: [UInt8]) -> Flat? {
            var scanner: String?
            var container: String?
            var key: String?
            var pointer: JSONPointer?
            var reveal: Bool?
            var pointerSeen = false
            let head = FlatRequest.read(line) { name, value in
                switch (name, value) {
                case (.scanner, .string(let text)) where scanner == nil: scanner = text
                case (.container, .string(let text)) where container == nil: container = text
                case (.key, .string(let text)) where key == nil: key = text
                case (.pointer, .string(let text)) where !pointerSeen:
                    pointerSeen = true
                    if !text.isEmpty {
                        guard let parsed = try? JSONPointer(parsing: text) else { return false }
                        pointer = parsed
                    }
                case (.reveal, .bool(let flag)) where reveal == nil: reveal = flag
                default: return false
                }
                return true
            }
            guard let head, head.method == method, let container, let key else { return nil }
            let place = Place(scanner: scanner, container: container, key: key, pointer: pointer)
            return Flat(id: head.id, params: GetParams(place, reveal: reveal ?? false))
        }

        /// A flat `get`: its id and its params. A type of its own, not a tuple: an optional
        /// tuple was destroyed through the runtime's generic value witnesses on every `get`.
        package struct Flat {
            /// The request's id.
            package let id: JSONValue
            /// The request's params.
            package let params: GetParams
        }
    }

    /// The params of `set`.
    public struct SetParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.set.rawValue
        /// Where to write.
        public var place: Place
        /// The value's type; nil lets the agent infer it from the value.
        public var type: PreferenceType?
        /// The value in the wire encoding.
        public var value: JSONValue
        /// Write only if the stored value still has this revision.
        public var expectedRevision: Revision?
        /// The change of several writes this one belongs to (``ChangeParams``).
        public var change = ChangeParams()

        /// Params storing `value` at `place`, with its type.
        public init(_ place: Place, value: PreferenceValue, expectedRevision: Revision? = nil) {
            self.init(place, type: value.type, value: value.json, expectedRevision: expectedRevision)
        }

        /// Params storing a value already in the wire encoding.
        public init(_ place: Place, type: PreferenceType?, value: JSONValue, expectedRevision: Revision? = nil) {
            self.place = place
            self.type = type
            self.value = value
            self.expectedRevision = expectedRevision
        }

        /// `{"scanner"?,"container","key","pointer"?,"type"?,"value","expectedRevision"?,"change"?,"rollback"?}`
        public var json: JSONObject {
            var object = JSONObject()
            place.write(into: &object)
            object.setIfPresent("type", type.map { .string($0.rawValue) })
            object["value"] = value
            object.setIfPresent("expectedRevision", expectedRevision.map { .string($0.text) })
            change.write(into: &object)
            return object
        }

        /// The value, read as `type` when one was given.
        /// - Throws: ``JarvisError`` `.typeMismatch` when the value cannot hold the type.
        public func decodedValue() throws(JarvisError) -> PreferenceValue {
            if let type { return try PreferenceValue(json: value, as: type) }
            return try PreferenceValue(json: value)
        }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .set,
                allowed: ["scanner", "container", "key", "pointer", "type", "value", "expectedRevision", "change", "rollback"])
            place = try Place(params)
            guard let value = params["value"] else {
                throw RPCError.invalidParams("set needs the param 'value'")
            }
            self.value = value
            type = try params.type("type")
            expectedRevision = try params.optionalString("expectedRevision").map(Revision.init)
            change = try ChangeParams(params, pointer: place.pointer != nil)
        }
    }

    /// The params of a single `delete`.
    public struct DeleteParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.delete.rawValue
        /// What to remove: a key, or a place inside its value.
        public var place: Place
        /// Remove only if the stored value still has this revision.
        public var expectedRevision: Revision?
        /// The change of several writes this one belongs to (``ChangeParams``).
        public var change = ChangeParams()

        /// Params removing `place`.
        public init(_ place: Place, expectedRevision: Revision? = nil) {
            self.place = place
            self.expectedRevision = expectedRevision
        }

        /// `{"scanner"?,"container","key","pointer"?,"expectedRevision"?,"change"?,"rollback"?}`
        public var json: JSONObject {
            var object = JSONObject()
            place.write(into: &object)
            object.setIfPresent("expectedRevision", expectedRevision.map { .string($0.text) })
            change.write(into: &object)
            return object
        }

        /// Reads the params of a single delete (`Params` already checked the names).
        package init(_ params: WireFields<RPCError>) throws(RPCError) {
            place = try Place(params)
            expectedRevision = try params.optionalString("expectedRevision").map(Revision.init)
            change = try ChangeParams(params, pointer: place.pointer != nil)
        }
    }

    /// The params of `reset`.
    public struct ResetParams: WireParams {
        /// The method name on the wire.
        public static let method = AgentMethod.reset.rawValue
        /// The key (a pointer does not go with reset).
        public var place: Place
        /// Reset only if the stored value still has this revision.
        public var expectedRevision: Revision?

        /// Params resetting the key of `place`.
        public init(_ place: Place, expectedRevision: Revision? = nil) {
            self.place = place
            self.expectedRevision = expectedRevision
        }

        /// `{"scanner"?,"container","key","expectedRevision"?}`
        public var json: JSONObject {
            var object = JSONObject()
            place.write(into: &object, pointer: false)
            object.setIfPresent("expectedRevision", expectedRevision.map { .string($0.text) })
            return object
        }

        /// Reads the params as the agent receives them, refusing unknown ones.
        package init(params raw: JSONObject) throws(RPCError) {
            let params = try WireFields(
                params: raw, method: .reset, allowed: ["scanner", "container", "key", "expectedRevision"])
            place = try Place(params, pointer: false)
            expectedRevision = try params.optionalString("expectedRevision").map(Revision.init)
        }
    }

    /// The answer to `get`, `set` and a single `delete`: one item.
    public struct ItemResult: WireMessage {
        /// The item read, as stored, or as it was before the delete.
        public var item: PreferenceItem

        /// The answer carrying `item`.
        public init(_ item: PreferenceItem) { self.item = item }

        /// `{"item":{…}}`
        public var json: JSONValue { .object(["item": WireItem.encode(item)]) }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "an item answer")
            guard let raw = fields["item"] else {
                throw JarvisError(.storage, "the agent sent an item answer without 'item'")
            }
            item = try WireItem.decode(raw)
        }
    }

    /// The answer to `reset`.
    public struct ResetResult: WireMessage {
        /// The stored item that went; nil when nothing was stored.
        public var removed: PreferenceItem?
        /// The key now: a registered default or an unset catalog item; nil when it has no default.
        public var item: PreferenceItem?

        /// The answer to a reset.
        public init(removed: PreferenceItem?, item: PreferenceItem?) {
            self.removed = removed
            self.item = item
        }

        /// `{"removed"?:{…},"item"?:{…}}`
        public var json: JSONValue {
            var object = JSONObject()
            object.setIfPresent("removed", removed.map(WireItem.encode))
            object.setIfPresent("item", item.map(WireItem.encode))
            return .object(object)
        }

        /// Reads the body an agent sent.
        public init(json: JSONValue) throws(JarvisError) {
            let fields = try WireFields(json, "a reset answer")
            removed = try fields["removed"].map { raw throws(JarvisError) in try WireItem.decode(raw) }
            item = try fields["item"].map { raw throws(JarvisError) in try WireItem.decode(raw) }
        }
    }
}
