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

    /// A snapshot that includes secrets because the export itself asks for them: each one is
    /// read again with `reveal`, so the agent checks its consent for this export and records
    /// one `reveal` audit record per secret sent, naming this client.
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
        var items: [PreferenceItem] = []
        var leftOut = 0
        for (address, item) in state.items where scanner == nil || address.scanner == scanner {
            guard !InspectorState.isUnset(item) else { continue }
            guard item.isMasked else {
                items.append(item)
                continue
            }
            do {
                items.append(
                    try source.call(Wire.GetParams(Wire.Place(address), reveal: true), expecting: Wire.ItemResult.self)
                        .item)
            } catch  where error.code == .notFound {
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
