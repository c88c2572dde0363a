import Foundation
import JarvisCore

@testable import JarvisScanners

/// A keyring in memory that counts every call, standing in for the Keychain on Linux (named
/// and grouped as generic passwords are), so the logic every keyring shares is tested here.
final class MemoryItemStore: SecretItemStore {
    /// The calls made so far.
    struct Calls: Sendable, Equatable {
        /// `find`s that name attributes: one item's own, or one container's.
        var lookups = 0
        /// `find`s of every item.
        var listings = 0
        var creates = 0
        var updates = 0
        var deletes = 0
    }

    let name: String
    let containerAttribute: String
    let createsItems: Bool
    let unavailableReason: String? = nil
    private let state = Locked<(items: [SecretItem], next: Int, calls: Calls, shapes: [String])>(([], 1, Calls(), []))

    init(name: String = "keychain", containerAttribute: String = "service", createsItems: Bool = true) {
        self.name = name
        self.containerAttribute = containerAttribute
        self.createsItems = createsItems
    }

    /// The calls since the last reset.
    var calls: Calls { state.current.calls }

    /// What each `find` since the last reset asked by: its attribute names and its limit,
    /// without the values (what a stand-in for a hidden name must share with a real name).
    var shapes: [String] { state.current.shapes }

    func resetCalls() {
        state.withLock {
            $0.calls = Calls()
            $0.shapes = []
        }
    }

    /// Adds an item the way another program would, without counting.
    func seed(_ label: String, _ attributes: [String: String], secret: String) {
        state.withLock { state in
            state.items.append(
                SecretItem(id: "\(state.next)", label: label, attributes: attributes, secret: Array(secret.utf8)))
            state.next += 1
        }
    }

    /// The secrets of the items whose attributes include `query`, in the store's order.
    func secrets(_ query: [String: String]) -> [String] {
        state.current.items.filter { Self.matches($0, query) }.map { String(decoding: $0.secret ?? [], as: UTF8.self) }
    }

    func find(_ query: [String: String], loadSecrets: Bool, limit: Int?) throws -> [SecretItem] {
        state.withLock { state in
            if query.isEmpty { state.calls.listings += 1 } else { state.calls.lookups += 1 }
            state.shapes.append(query.keys.sorted().joined(separator: ",") + " limit \(limit.map(String.init) ?? "none")")
            let found = state.items.filter { Self.matches($0, query) }.map { item in
                var copy = item
                if !loadSecrets { copy.secret = nil }
                return copy
            }
            return limit.map { Array(found.prefix($0)) } ?? found
        }
    }

    func create(attributes: [String: String], label: String, secret: [UInt8], isText: Bool) throws {
        state.withLock { state in
            state.calls.creates += 1
            state.items.append(SecretItem(id: "\(state.next)", label: label, attributes: attributes, secret: secret))
            state.next += 1
        }
    }

    func update(_ item: SecretItem, secret: [UInt8], isText: Bool) throws {
        try state.withLock { (state) throws(JarvisError) in
            state.calls.updates += 1
            guard let index = state.items.firstIndex(where: { $0.id == item.id }) else {
                throw JarvisError(.notFound, "no item \(item.id)")
            }
            state.items[index].secret = secret
        }
    }

    func delete(_ item: SecretItem) throws {
        try state.withLock { (state) throws(JarvisError) in
            state.calls.deletes += 1
            guard let index = state.items.firstIndex(where: { $0.id == item.id }) else {
                throw JarvisError(.notFound, "no item \(item.id)")
            }
            state.items.remove(at: index)
        }
    }

    private static func matches(_ item: SecretItem, _ query: [String: String]) -> Bool {
        query.allSatisfy { item.attributes[$0.key] == $0.value }
    }
}
