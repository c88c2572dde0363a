extension PreferenceValue {
    /// A lower bound of the bytes this value takes written as JSON, counted only until it
    /// passes `limit` (the result is then some number above `limit`).
    ///
    /// Cheap next to writing the value: an answer that can never be sent is refused before it
    /// is made, so asking for a value larger than a connection may queue costs the agent no copy
    /// of it. Strings count their UTF-8 bytes, data its base64, every other scalar one byte.
    public func minimumJSONBytes(countingPast limit: Int) -> Int {
        // A scalar, the most common value, is counted without the walk's stack.
        switch self {
        case .string(let text): return text.utf8.count + 2
        case .data(let data): return (data.count + 2) / 3 * 4 + 2
        case .integer, .real, .boolean, .date, .bigNumber: return 1
        case .array, .dictionary: break
        }
        var total = 0
        var pending: [PreferenceValue] = [self]
        while total <= limit, let value = pending.popLast() {
            switch value {
            case .string(let text): total += text.utf8.count + 2
            case .data(let data): total += (data.count + 2) / 3 * 4 + 2
            case .integer, .real, .boolean, .date, .bigNumber: total += 1
            case .array(let values):
                total += 1 + values.count
                pending.append(contentsOf: values)
            case .dictionary(let members):
                total += 1 + members.count
                for (key, member) in members {
                    total += key.utf8.count + 3
                    pending.append(member)
                }
            }
        }
        return total
    }
}
