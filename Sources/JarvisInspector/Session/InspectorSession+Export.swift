import Foundation
import JarvisCore
import JarvisRemote

extension InspectorSession {
    /// A snapshot of what the inspector shows (one scanner, or all), as `jarvis export` writes
    /// it, with every secret left out, revealed or not: a reveal to look is not consent to
    /// share. ``snapshotIncludingSecrets(scanner:now:)`` is the export that asks for them.
    /// - Returns: the snapshot's JSON text and how many secrets were left out.
    public func snapshot(scanner: String? = nil, now: Date = Date()) -> (text: String, leftOut: Int) {
        let state = self.state
        var items: [PreferenceItem] = []
        var leftOut = 0
        for (address, item) in state.items where scanner == nil || address.scanner == scanner {
            guard !InspectorState.isUnset(item) else { continue }
            // `items` holds what the agent listed: a secret stays masked there after a reveal.
            if item.isMasked {
                leftOut += 1
                continue
            }
            items.append(item)
        }
        return (Self.snapshotText(state, items, now: now), leftOut)
    }

    /// A snapshot that includes secrets because the export itself asks for them: they are
    /// listed again with `reveal` in a listing marked as an export, so the agent checks its
    /// consent for this export and records it, naming this client: one `export` record (how
    /// many secrets it sent) beside one `reveal` record per secret sent.
    /// - Returns: the snapshot's JSON text and how many secrets could not be read (left out).
    /// - Throws: ``JarvisError`` `.unauthorized` when the agent does not allow revealing.
    public func snapshotIncludingSecrets(scanner: String? = nil, now: Date = Date()) throws(JarvisError)
        -> (text: String, leftOut: Int)
    {
        let state = self.state
        guard state.canReveal else {
            throw JarvisError(
                .unauthorized,
                "this agent does not allow revealing secrets, so a snapshot cannot include them; export without secrets"
            )
        }
        var revealed: [PreferenceAddress: PreferenceItem] = [:]
        // Only when something shown is a secret: an export without one reveals nothing.
        if state.items.values.contains(where: { $0.isMasked && (scanner == nil || $0.address.scanner == scanner) }) {
            var params = Wire.ListParams(scanner: scanner, reveal: true, limit: Wire.maxPageSize, export: true)
            repeat {
                let page = try source.call(params, expecting: Wire.ListPage.self)
                for item in page.items where item.value != nil { revealed[item.address] = item }
                params.cursor = page.nextCursor
            } while params.cursor != nil
        }
        var items: [PreferenceItem] = []
        var leftOut = 0
        for (address, item) in state.items where scanner == nil || address.scanner == scanner {
            guard !InspectorState.isUnset(item) else { continue }
            guard item.isMasked else {
                items.append(item)
                continue
            }
            if let value = revealed[address] {
                items.append(value)
            } else {
                leftOut += 1
            }
        }
        return (Self.snapshotText(state, items, now: now), leftOut)
    }

    private static func snapshotText(_ state: InspectorState, _ items: [PreferenceItem], now: Date) -> String {
        let agent: JSONObject = [
            "name": .string(state.hello.agent), "pid": .integer(state.hello.pid),
            "platform": .string(state.hello.platform),
        ]
        return JarvisSnapshot(agent: agent, exported: now, items: items.sorted(by: JarvisSnapshot.order)).text
    }
}
