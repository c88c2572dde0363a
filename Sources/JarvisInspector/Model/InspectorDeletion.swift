import JarvisCore

/// A delete of the rows a filter shows: exactly those keys, each at the revision it was shown
/// at, previewed before anything is sent. A key changed since is kept, not deleted.
public struct InspectorDeletion: Sendable, Hashable {
    /// One key to delete.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var address: PreferenceAddress
        /// The revision it was shown at; sent, so a key changed since is not deleted.
        public var revision: Revision
    }

    /// What happened, key by key.
    public struct Outcome: Sendable, Hashable {
        /// Keys deleted.
        public var deleted: [PreferenceAddress] = []
        /// Keys someone else changed since the preview: kept.
        public var changed: [PreferenceAddress] = []
        /// Keys the agent refused to delete, with its message.
        public var refused: [String: String] = [:]

        /// What a face says about it.
        public var message: InspectorMessage {
            var text = "deleted \(deleted.count) key\(deleted.count == 1 ? "" : "s")"
            if !changed.isEmpty {
                text +=
                    "; kept \(changed.count) changed since the preview: "
                    + InspectorDeletion.list(changed.map(\.key))
            }
            if !refused.isEmpty {
                text +=
                    "; refused: "
                    + refused.keys.sorted().map { "\($0) (\(refused[$0] ?? ""))" }.joined(separator: ", ")
            }
            return InspectorMessage(text, changed.isEmpty && refused.isEmpty ? .info : .warning)
        }
    }

    /// The keys, in the order they were shown.
    public var entries: [Entry]
    /// Rows shown that cannot be deleted (read-only, unset, registered defaults, members): not
    /// part of the delete, and said in ``question``.
    public var skipped: Int

    /// The yes/no question a face asks, naming the keys (the first few when many).
    public var question: String {
        guard !entries.isEmpty else {
            return skipped > 0 ? "None of the \(skipped) rows shown can be deleted" : "Nothing is shown to delete"
        }
        var text =
            "Delete the \(entries.count) key\(entries.count == 1 ? "" : "s") shown: "
            + Self.list(entries.map(\.address.key))
        if skipped > 0 { text += " (\(skipped) shown cannot be deleted and stay)" }
        return text + "?"
    }

    static func list(_ names: [String], first: Int = 6) -> String {
        names.prefix(first).joined(separator: ", ") + (names.count > first ? ", … (\(names.count - first) more)" : "")
    }
}

extension InspectorState {
    /// The delete of exactly `rows` (the rows a face shows under its filter): each deletable
    /// key at the revision it has now; anything else is skipped and counted.
    public func deletion(of rows: [InspectorRow]) -> InspectorDeletion {
        var entries: [InspectorDeletion.Entry] = []
        var skipped = 0
        for row in rows {
            guard row.isDeletable, case .key(let address) = row.target, let item = items[address] else {
                skipped += 1
                continue
            }
            entries.append(.init(address: address, revision: item.revision))
        }
        return InspectorDeletion(entries: entries, skipped: skipped)
    }
}
