/// The parser's state machine over one input buffer.
///
/// Containers under construction live on explicit stacks instead of the call stack, so the
/// nesting limit is the only thing standing between hostile input and memory, and exceeding
/// it is an ordinary error.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0
    /// What the values may take in memory (``spent``); past it, the read stops.
    var byteBudget = Int.max
    /// What the values made so far take in memory, roughly as it counts them: each value its
    /// place in its container and a fixed cost, text by its bytes once it is too long to be
    /// kept inline.
    private(set) var spent = 0

    // One entry per open container, innermost last; `isObject` says which of the other
    // stacks its contents live on.
    private var isObject: [Bool] = []
    private var arrays: [[JSONValue]] = []
    private var objects: [JSONObject] = []
    private var pendingKeys: [String] = []

    // Reused across escaped strings so decoding them does not allocate per string.
    var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Reads the single top-level value and checks nothing but whitespace follows it.
    mutating func readDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if position == bytes.count {
            throw error(bytes.isEmpty ? "the input is empty; expected a JSON value" : "expected a JSON value")
        }
        let value = try readValue()
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describe(bytes[position])) after the JSON value; only whitespace may follow it")
        }
        return value
    }

    private mutating func readValue() throws(JSONParseError) -> JSONValue {
        var afterComma = false
        nextValue: while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input; expected a JSON value") }
            var value: JSONValue
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try openContainer(isObject: true)
                skipWhitespace()
                if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object(closeObject())
                } else {
                    try readMemberKey(afterComma: false)
                    afterComma = false
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try openContainer(isObject: false)
                skipWhitespace()
                if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array(closeArray())
                } else {
                    afterComma = false
                    continue nextValue
                }
            case UInt8(ascii: "]") where afterComma:
                throw error("trailing comma before ']'; remove the comma or add an element")
            case let byte:
                guard let scalar = try readScalar() else { throw error(unexpectedValueMessage(byte)) }
                value = scalar
            }

            // A value is complete: hand it to its container, closing every container that
            // ends right after it.
            while true {
                guard let inObject = isObject.last else { return value }
                skipWhitespace()
                let next: UInt8? = position < bytes.count ? bytes[position] : nil
                if inObject {
                    let key = pendingKeys.removeLast()
                    objects[objects.count - 1].appendNewMember(key, value)
                    if next == UInt8(ascii: ",") {
                        position += 1
                        try readMemberKey(afterComma: true)
                        afterComma = false
                        continue nextValue
                    } else if next == UInt8(ascii: "}") {
                        position += 1
                        value = .object(closeObject())
                    } else {
                        throw error(
                            next == nil
                                ? "unexpected end of input; expected ',' or '}' after object member"
                                : "expected ',' or '}' after object member")
                    }
                } else {
                    arrays[arrays.count - 1].append(value)
                    if next == UInt8(ascii: ",") {
                        position += 1
                        afterComma = true
                        continue nextValue
                    } else if next == UInt8(ascii: "]") {
                        position += 1
                        value = .array(closeArray())
                    } else {
                        throw error(
                            next == nil
                                ? "unexpected end of input; expected ',' or ']' after array element"
                                : "expected ',' or ']' after array element")
                    }
                }
            }
        }
    }

    // MARK: - Containers

    private mutating func openContainer(isObject object: Bool) throws(JSONParseError) {
        guard isObject.count < maxDepth else {
            throw error("nesting is deeper than the limit of \(maxDepth) arrays and objects")
        }
        position += 1
        if isObject.isEmpty {
            // Sized once for the usual few levels, so the stacks do not grow step by step.
            isObject.reserveCapacity(8)
            objects.reserveCapacity(4)
            pendingKeys.reserveCapacity(4)
        }
        try charge(Self.valueCost)
        isObject.append(object)
        if object {
            // Most objects have a handful of members: one allocation instead of three growths.
            var members = JSONObject()
            members.reserveCapacity(4)
            objects.append(members)
        } else {
            arrays.append([])
        }
    }

    private mutating func closeObject() -> JSONObject {
        isObject.removeLast()
        return objects.removeLast()
    }

    private mutating func closeArray() -> [JSONValue] {
        isObject.removeLast()
        return arrays.removeLast()
    }

    /// Reads `"key" :` and remembers the key for the value that follows.
    private mutating func readMemberKey(afterComma: Bool) throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("unexpected end of input; expected a string key")
        }
        let byte = bytes[position]
        guard byte == UInt8(ascii: "\"") else {
            if byte == UInt8(ascii: "}") && afterComma {
                throw error("trailing comma before '}'; remove the comma or add a member")
            }
            if byte == UInt8(ascii: "'") {
                throw error("object keys must use double quotes, not single quotes")
            }
            throw error("expected a double-quoted string key, found \(describe(byte))")
        }
        let keyOffset = position
        let key = try readString()
        try charge(key: key)
        if objects[objects.count - 1].index(forKey: key) != nil {
            throw error("duplicate key \(quoted(key)) in object; each key may appear only once", at: keyOffset)
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw error("expected ':' after object key \(quoted(key))")
        }
        position += 1
        pendingKeys.append(key)
    }

    // MARK: - Scalars

    /// Reads the string, number, `true`, `false` or `null` at the current position; nil (and
    /// nothing read) when the byte there starts none of them.
    mutating func readScalar() throws(JSONParseError) -> JSONValue? {
        try charge(Self.valueCost)
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let text = try readString()
            try charge(Self.heapBytes(of: text))
            return .string(text)
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            return nil
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            guard position + index < bytes.count, bytes[position + index] == start[index] else {
                throw error("invalid literal; expected '\(literal)'")
            }
        }
        position += count
    }

    private mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = position
        if bytes[position] == UInt8(ascii: "-") {
            position += 1
            guard isDigit(at: position) else {
                if position < bytes.count && bytes[position] == UInt8(ascii: "I") {
                    throw error("-Infinity is not valid JSON; JSON numbers must be finite")
                }
                throw error("expected a digit after '-'")
            }
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(at: position) {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            skipDigits()
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard isDigit(at: position) else { throw error("expected a digit after the decimal point") }
            skipDigits()
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            let sign = position < bytes.count ? bytes[position] : 0
            if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                position += 1
            }
            guard isDigit(at: position) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        try charge(Self.heapBytes(of: text))
        return JSONNumber(validatedText: text)
    }

    private func isDigit(at index: Int) -> Bool {
        index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isDigit(at: position) { position += 1 }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    // MARK: - Memory

    /// What a value costs besides text kept out of line: its place in its container and about
    /// one reference-counted header (as ``PropertyListLimits`` counts a property list's).
    static let valueCost = 56

    /// What `text` takes out of line: nothing when short enough to be kept in the value.
    static func heapBytes(of text: String) -> Int {
        let count = text.utf8.count
        return count > 15 ? 32 + count : 0
    }

    /// Runs `read` over `bytes` with what is left of `budget` as ``byteBudget``, and charges
    /// what the values it made take (past what was left, as far as counted). Text that is not
    /// JSON charges nothing: what it made is gone with the error.
    static func read<Value>(
        _ bytes: [UInt8], maxDepth: Int, budget: inout ExpansionBudget,
        _ read: (inout JSONReader) throws(JSONParseError) -> Value
    ) throws(JSONParseError) -> Value {
        let remaining = budget.remaining
        let (result, spent) = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, maxDepth: maxDepth)
            reader.byteBudget = remaining
            let result = Result { () throws(JSONParseError) in try read(&reader) }
            return (result, reader.spent)
        }
        if case .success = result {
            budget.charge(spent)
        } else if spent > remaining {
            budget.charge(spent, atLeast: true)
        }
        return try result.get()
    }

    /// Charges an object member's key: its text and the member's extra place.
    mutating func charge(key: String) throws(JSONParseError) {
        try charge(16 + Self.heapBytes(of: key))
    }

    /// Charges `bytes` more of memory; past ``byteBudget``, the read stops.
    mutating func charge(_ bytes: Int) throws(JSONParseError) {
        spent += bytes
        guard spent > byteBudget else { return }
        throw error(
            "the JSON would take more than \(ExpansionBudget.spoken(byteBudget)) in memory once read; Jarvis does not read it"
        )
    }

    // MARK: - Errors

    /// An error at the current position, or at `offset` when the problem started earlier.
    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message, at: offset ?? position, in: bytes)
    }

    /// A key as JSON for a message, shortened so a hostile megabyte key cannot bloat the error.
    private func quoted(_ key: String) -> String {
        let limit = 80
        guard key.count > limit else { return JSONWriter.string(.string(key)) }
        return JSONWriter.string(.string(String(key.prefix(limit)))) + "..."
    }

    /// Names a byte for a message: printable ASCII as itself, anything else in hex.
    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
    }

    /// Explains the usual non-JSON habits (JavaScript literals, comments, quotes) by name.
    private func unexpectedValueMessage(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            return "NaN and Infinity are not valid JSON; JSON numbers must be finite"
        case UInt8(ascii: "+"):
            return "numbers must not start with '+'"
        case UInt8(ascii: "."):
            return "numbers must start with a digit, as in 0.5"
        case UInt8(ascii: "'"):
            return "strings must use double quotes, not single quotes"
        case UInt8(ascii: "/"), UInt8(ascii: "#"):
            return "comments are not allowed in JSON"
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            return "expected a JSON value, found \(describe(byte))"
        case 0:
            return "NUL bytes are not allowed in JSON text"
        case 0x80...:
            return "unexpected \(describe(byte)); non-ASCII text is only allowed inside strings"
        default:
            return "unexpected \(describe(byte)); expected a JSON value"
        }
    }
}
