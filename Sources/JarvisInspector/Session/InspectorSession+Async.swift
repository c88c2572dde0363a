import Foundation
import JarvisCore
import JarvisRemote

/// The same actions without blocking the caller: each runs on the session's background
/// queue, one at a time, and resumes the caller when the agent has answered. A UI calls these
/// from the main actor.
extension InspectorSession {
    /// Runs `body` on the session's queue.
    func background<T: Sendable>(_ body: @escaping @Sendable () throws(JarvisError) -> T) async throws(JarvisError) -> T
    {
        let result: Result<T, JarvisError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(JarvisError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// ``load()`` off the caller's thread.
    public func load() async throws(JarvisError) {
        try await background { () throws(JarvisError) in try self.load() }
    }

    /// ``startLive()`` off the caller's thread.
    public func startLive() async {
        _ = try? await background { () throws(JarvisError) in self.startLive() }
    }

    /// ``reveal(_:)`` off the caller's thread.
    @discardableResult
    public func reveal(_ address: PreferenceAddress) async throws(JarvisError) -> PreferenceItem {
        try await background { () throws(JarvisError) in try self.reveal(address) }
    }

    /// ``quickEdit(_:_:)`` off the caller's thread.
    public func quickEdit(_ target: InspectorRow.Target, _ quickEdit: InspectorQuickEdit) async throws(JarvisError)
        -> QuickEditResult
    {
        try await background { () throws(JarvisError) in try self.quickEdit(target, quickEdit) }
    }

    /// ``save(_:text:confirmed:)`` off the caller's thread.
    public func save(_ draft: ValueDraft, text: String, confirmed: Bool = false) async throws(JarvisError)
        -> SaveOutcome
    {
        try await background { () throws(JarvisError) in try self.save(draft, text: text, confirmed: confirmed) }
    }

    /// ``delete(_:)`` off the caller's thread.
    @discardableResult
    public func delete(_ target: InspectorRow.Target) async throws(JarvisError) -> PreferenceItem? {
        try await background { () throws(JarvisError) in try self.delete(target) }
    }

    /// ``deletePreview(scanner:container:matching:)`` off the caller's thread.
    public func deletePreview(scanner: String, container: String, matching glob: String) async throws(JarvisError)
        -> [String]
    {
        try await background { () throws(JarvisError) in
            try self.deletePreview(scanner: scanner, container: container, matching: glob)
        }
    }

    /// ``delete(scanner:container:matching:)`` off the caller's thread.
    @discardableResult
    public func delete(scanner: String, container: String, matching glob: String) async throws(JarvisError) -> [String]
    {
        try await background { () throws(JarvisError) in
            try self.delete(scanner: scanner, container: container, matching: glob)
        }
    }

    /// ``delete(_:)-(InspectorDeletion)`` off the caller's thread.
    public func delete(_ deletion: InspectorDeletion) async throws(JarvisError) -> InspectorDeletion.Outcome {
        try await background { () throws(JarvisError) in try self.delete(deletion) }
    }

    /// ``reset(_:)`` off the caller's thread.
    @discardableResult
    public func reset(_ address: PreferenceAddress) async throws(JarvisError) -> PreferenceItem? {
        try await background { () throws(JarvisError) in try self.reset(address) }
    }

    /// ``undo(redo:)`` off the caller's thread.
    public func undo(redo: Bool = false) async throws(JarvisError) -> InspectorMessage {
        try await background { () throws(JarvisError) in try self.undo(redo: redo) }
    }

    /// ``timeline(of:)`` off the caller's thread.
    public func timeline(of address: PreferenceAddress) async throws(JarvisError) -> [InspectorTimelineEntry] {
        try await background { () throws(JarvisError) in try self.timeline(of: address) }
    }

    /// ``revert(_:)`` off the caller's thread.
    public func revert(_ entry: InspectorTimelineEntry) async throws(JarvisError) -> InspectorMessage {
        try await background { () throws(JarvisError) in try self.revert(entry) }
    }

    /// ``snapshotIncludingSecrets(scanner:now:)`` off the caller's thread.
    public func snapshotIncludingSecrets(scanner: String? = nil) async throws(JarvisError) -> (
        text: String, leftOut: Int
    ) {
        try await background { () throws(JarvisError) in try self.snapshotIncludingSecrets(scanner: scanner) }
    }

    /// ``close()`` off the caller's thread.
    public func close() async {
        _ = try? await background { () throws(JarvisError) in self.close() }
    }
}
