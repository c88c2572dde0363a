import Foundation
import JarvisCore
import JarvisRemote

/// One container of the agent in view compared with the same container elsewhere: on another
/// agent, or in a snapshot file (`jarvis export`). The differences are ``SnapshotDiff``'s,
/// as `jarvis diff agent:HERE OTHER` finds them, and each is applied on its own, to the agent
/// in view only, guarded by the revision the comparison read there.
package struct InspectorContainerComparison: Sendable, Hashable {
    /// How one key differs, seen from the agent in view.
    package enum Kind: String, Sendable, Hashable {
        /// Only on the other side: applying adds it here.
        case added
        /// Only here: applying removes it here.
        case removed
        /// On both sides with different values: applying writes the other side's here.
        case changed
    }

    /// One key that differs.
    package struct Difference: Sendable, Hashable {
        package var kind: Kind
        /// The key.
        package var address: PreferenceAddress
        /// The key in view; nil when it is only on the other side.
        package var here: PreferenceItem?
        /// The key on the other side; nil when it is only here.
        package var there: PreferenceItem?

        /// Why it cannot be applied, when it cannot: a masked secret's value is unknown, a
        /// placeholder stands for a value that cannot be written.
        package var blocked: String? {
            guard kind != .removed, let there else { return nil }
            if there.isPlaceholder { return "the other side holds a stand-in for a value that cannot be written" }
            if there.value == nil { return "a masked secret on the other side: its value is unknown" }
            return nil
        }

        /// What the button that applies it says.
        package var applyLabel: String {
            switch kind {
            case .added: "Add here"
            case .removed: "Remove here"
            case .changed: "Use theirs here"
            }
        }
    }

    /// The differences, in key order.
    package var differences: [Difference]
    /// How many keys hold the same value on both sides.
    package var unchanged: Int
    /// Masked secrets a snapshot left out: not compared.
    package var notCompared: Int

    /// Compares the items of one container here with those of the other side.
    /// - Parameter leftOut: the masked secrets the other side's snapshot left out.
    package init(here: [PreferenceItem], there: [PreferenceItem], leftOut: [PreferenceAddress] = []) {
        let diff = SnapshotDiff(from: here, to: there, leftOut: Set(leftOut))
        differences =
            (diff.added.map { Difference(kind: .added, address: $0.address, here: nil, there: $0) }
            + diff.removed.map { Difference(kind: .removed, address: $0.address, here: $0, there: nil) }
            + diff.changed.map { Difference(kind: .changed, address: $0.new.address, here: $0.old, there: $0.new) })
            .sorted { $0.address.key.naturallyBefore($1.address.key) }
        unchanged = diff.unchanged.count
        notCompared = diff.notCompared.count
    }

    /// The difference of `key`, if it still differs.
    package func difference(_ key: String) -> Difference? {
        differences.first { $0.address.key == key }
    }

    /// Applies one difference to the agent `client` speaks to (the agent in view), guarded
    /// by the revision read there: added only where the key is still absent, changed or
    /// removed only where it still has the value compared.
    /// - Returns: the key as stored after, or as it was before a removal.
    /// - Throws: ``JarvisError`` `.conflict` when the key changed since, `.invalidParams` for
    ///   a difference that cannot be applied (``Difference/blocked``), or what the agent
    ///   answered.
    package static func apply(_ difference: Difference, with client: JarvisClient) throws(JarvisError)
        -> PreferenceItem
    {
        if let blocked = difference.blocked { throw JarvisError(.invalidParams, blocked) }
        switch difference.kind {
        case .removed:
            guard let here = difference.here else { throw JarvisError(.invalidParams, "nothing to remove") }
            return try client.delete(difference.address, expectedRevision: here.revision)
        case .added, .changed:
            guard let value = difference.there?.value else { throw JarvisError(.invalidParams, "nothing to write") }
            return try client.set(
                difference.address, to: value, expectedRevision: difference.here?.revision ?? .absent)
        }
    }

    /// A container's stored values on an agent, masked secrets among them (present, values
    /// unknown), as `jarvis diff` reads a live side.
    package static func items(scanner: String, container: String, with client: JarvisClient) throws(JarvisError)
        -> [PreferenceItem]
    {
        let (snapshot, masked) = try client.snapshot(
            scanner: scanner, container: GlobPattern.literal(container).description)
        return (snapshot.items + masked).filter { $0.address.scanner == scanner && $0.address.container == container }
    }

    /// The most bytes of a snapshot file the browser sends to be compared.
    package static let maxSnapshotBytes = 512 * 1024

    /// Reads a snapshot file's items of one container, with the decoder of `jarvis diff` and
    /// `import`.
    /// - Throws: ``JarvisError`` `.invalidParams`: a file over ``maxSnapshotBytes``, one that
    ///   is no snapshot, or one that holds nothing of the container.
    package static func snapshotSide(_ bytes: [UInt8], name: String, scanner: String, container: String)
        throws(JarvisError) -> (items: [PreferenceItem], leftOut: [PreferenceAddress])
    {
        guard bytes.count <= maxSnapshotBytes else { throw tooLarge(name: name, bytes: bytes.count) }
        let snapshot = try JarvisSnapshot(parsing: bytes, source: name)
        let inside = { (address: PreferenceAddress) in address.scanner == scanner && address.container == container }
        let items = snapshot.items.filter { inside($0.address) }
        let leftOut = snapshot.leftOut.filter(inside)
        guard !items.isEmpty || !leftOut.isEmpty else {
            throw JarvisError(
                .invalidParams,
                "\(name) holds no key of \(container) (it holds \(snapshot.items.count) key(s) of other containers); export this container with `jarvis export \(container)`"
            )
        }
        return (items, leftOut)
    }

    /// The refusal of a snapshot file over ``maxSnapshotBytes``.
    package static func tooLarge(name: String, bytes: Int?) -> JarvisError {
        let size = bytes.map { "is \($0 / 1024) KiB" } ?? "is larger than \(maxSnapshotBytes / 1024) KiB"
        return JarvisError(
            .invalidParams,
            "\(name) \(size); the page compares snapshot files up to \(maxSnapshotBytes / 1024) KiB: export only this container (`jarvis export CONTAINER`), or compare with `jarvis diff FILE agent:NAME`"
        )
    }
}
