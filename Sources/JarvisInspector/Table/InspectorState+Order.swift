import JarvisCore

extension InspectorState {
    /// The table's order: naturally by key (`key_2` before `key_10`), then by container, then
    /// by scanner. Total: two addresses that differ never tie.
    public static func tableOrder(_ lhs: PreferenceAddress, _ rhs: PreferenceAddress) -> Bool {
        if lhs.key != rhs.key { return lhs.key.naturallyBefore(rhs.key) }
        if lhs.container != rhs.container { return lhs.container.naturallyBefore(rhs.container) }
        return lhs.scanner < rhs.scanner
    }

    /// Where `address` is or would go in ``orderedAddresses`` (the first place not before it).
    func orderedIndex(_ address: PreferenceAddress) -> Int {
        var low = 0
        var high = orderedAddresses.count
        while low < high {
            let middle = (low + high) / 2
            if Self.tableOrder(orderedAddresses[middle], address) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Puts a new address in its place.
    mutating func insertOrdered(_ address: PreferenceAddress) {
        orderedAddresses.insert(address, at: orderedIndex(address))
    }

    /// Takes an address out.
    mutating func removeOrdered(_ address: PreferenceAddress) {
        let index = orderedIndex(address)
        if index < orderedAddresses.count, orderedAddresses[index] == address {
            orderedAddresses.remove(at: index)
        } else if let found = orderedAddresses.firstIndex(of: address) {
            orderedAddresses.remove(at: found)
        }
    }
}
