import Foundation
import JarvisCore

extension JarvisClient {
    /// The stored values matching the filters, as a snapshot, and the masked secrets it left out.
    /// - Parameter reveal: ask for secrets' values (the agent refuses when it does not allow it);
    ///   the listing is then marked as an export, which the agent records in its audit trail
    ///   (one `export` record beside each secret's `reveal`).
    public func snapshot(
        scanner: String? = nil, container: String? = nil, key: String? = nil, reveal: Bool = false
    ) throws(JarvisError) -> (snapshot: JarvisSnapshot, leftOut: [PreferenceItem]) {
        let listed = try listing(
            Wire.ListParams(scanner: scanner, container: container, key: key, reveal: reveal, export: reveal))
        // Stored values only: a catalogued key with nothing stored is neither a value nor a
        // masked secret.
        let stored = listed.items.filter { $0.layer == .stored && $0.catalog?.isUnset != true }
        let agent: JSONObject = [
            "name": .string(helloResult.agent), "pid": .integer(helloResult.pid),
            "platform": .string(helloResult.platform),
        ]
        let masked = stored.filter(\.isMasked)
        let snapshot = JarvisSnapshot(
            agent: agent, exported: Date(), items: stored.filter { $0.value != nil }, leftOut: masked.map(\.address))
        return (snapshot, masked)
    }

    /// What importing `snapshot` would do: compares it with the live values.
    /// - Parameter reveal: ask the agent for secrets' values so they compare by value (the
    ///   agent must allow it, and records the reveal); without it a secret compares as changed
    ///   and its current value stays masked.
    public func importPlan(for snapshot: JarvisSnapshot, reveal: Bool = false) throws(JarvisError)
        -> SnapshotImport.Plan
    {
        let canReveal = reveal
        var live: [PreferenceItem] = []
        for scanner in Set(snapshot.items.map(\.address.scanner)).sorted() {
            let page: Wire.ListPage
            do {
                page = try listing(Wire.ListParams(scanner: scanner, reveal: canReveal))
            } catch let error where error.code == .notFound {
                continue  // The scanner is not here; its items will be refused one by one.
            }
            // What a container holds now must be known before anything is written to it: a
            // plan that took an unreadable container (or a scanner that did not answer) for
            // empty would write without the revision guard and could not be put back.
            let touched = Set(snapshot.items.filter { $0.address.scanner == scanner }.map(\.address.container))
            if let problem = page.problems.first(where: { $0.name.isEmpty || touched.contains($0.name) }) {
                let place = problem.name.isEmpty ? "scanner \(scanner)" : "\(scanner):\(problem.name)"
                throw JarvisError(
                    .unavailable,
                    "cannot read what \(place) holds now (\(problem.problem ?? "unreadable")), so nothing was imported")
            }
            live += page.items.filter { $0.layer == .stored }
        }
        // A placeholder is what a scanner showed instead of a value it cannot represent: writing
        // it would store the stand-in (the string "null") where the real value was.
        let placeholders = snapshot.items.filter(\.isPlaceholder)
        let values = snapshot.items.filter { !$0.isPlaceholder }
        let wanted = Set(values.map(\.address))
        return SnapshotImport.Plan(
            diff: SnapshotDiff(from: live.filter { wanted.contains($0.address) }, to: values),
            placeholders: placeholders)
    }

    /// Applies a plan item by item, each write sending the revision the plan saw.
    ///
    /// The writes are one change in the agent's journal (one `undo` takes them all back), where
    /// the agent takes `change` (``Wire/Capabilities/changes``).
    /// - Parameters:
    ///   - atomic: on the first refusal, stop and put back what was already changed
    ///     (each undo sends the revision its write returned, so it never overwrites a change
    ///     somebody else made meanwhile, and is journaled as a rollback that no undo or redo
    ///     takes); false applies what it can and keeps it.
    ///   - change: the change's name, recorded in each write's journal entry (a fan-out sends
    ///     its own id to every agent); nil makes one (`import-` and a UUID).
    /// - Returns: what was changed, skipped, refused and, after a refusal, restored.
    public func apply(_ plan: SnapshotImport.Plan, atomic: Bool = true, change name: String? = nil)
        -> SnapshotImport.Report
    {
        let change = sendable(name ?? "import-\(UUID().uuidString)")
        var report = SnapshotImport.Report()
        report.unchanged = plan.diff.unchanged.map(\.address)
        report.skipped = plan.placeholders.map(\.address)
        var done: [(before: PreferenceItem?, after: PreferenceItem)] = []
        // In address order, as the snapshot lists them, so a refusal stops at a predictable place.
        let steps: [(before: PreferenceItem?, item: PreferenceItem)] =
            (plan.diff.added.map { (nil, $0) } + plan.diff.changed.map { ($0.old, $0.new) })
            .sorted { JarvisSnapshot.order($0.item, $1.item) }
        for (index, step) in steps.enumerated() {
            guard let value = step.item.value else { continue }
            do {
                var params = Wire.SetParams(
                    Wire.Place(step.item.address), value: value, expectedRevision: step.before?.revision)
                params.change = Wire.ChangeParams(change: change)
                let written = try call(params, expecting: Wire.ItemResult.self).item
                done.append((step.before, written))
                if step.before == nil {
                    report.added.append(written.address)
                } else {
                    report.changed.append(written.address)
                }
            } catch {
                report.refused.append(.init(address: step.item.address, error: error))
                if atomic {
                    report.notAttempted = steps[(index + 1)...].map(\.item.address)
                    rollBack(done, change: change, into: &report)
                    return report
                }
            }
        }
        return report
    }

    private func rollBack(
        _ done: [(before: PreferenceItem?, after: PreferenceItem)], change: String?,
        into report: inout SnapshotImport.Report
    ) {
        report.rolledBack = true
        let rollback = Wire.ChangeParams(change: change, rollback: change != nil)
        for step in done.reversed() {
            let address = step.after.address
            do throws(JarvisError) {
                if let before = step.before {
                    guard let value = before.value else {
                        throw JarvisError(.unauthorized, "the old value is a masked secret this agent did not reveal")
                    }
                    var params = Wire.SetParams(Wire.Place(address), value: value, expectedRevision: step.after.revision)
                    params.change = rollback
                    _ = try call(params, expecting: Wire.ItemResult.self)
                } else {
                    var params = Wire.DeleteParams(Wire.Place(address), expectedRevision: step.after.revision)
                    params.change = rollback
                    _ = try call(params, expecting: Wire.ItemResult.self)
                }
                report.restored.append(address)
            } catch {
                report.notRestored.append(.init(address: address, error: error))
            }
        }
    }
}
