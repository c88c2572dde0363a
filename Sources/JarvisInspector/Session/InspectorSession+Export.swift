import Foundation
import JarvisCore
import JarvisRemote

extension InspectorSession {
    /// A snapshot of what the inspector shows (one scanner, or all), as `jarvis export` writes
    /// it: secrets stay masked unless the user revealed them, and masked ones are left out.
    /// - Returns: the snapshot's JSON text and how many masked secrets were left out.
    public func snapshot(scanner: String? = nil, now: Date = Date()) -> (text: String, leftOut: Int) {
        let state = self.state
        var items: [PreferenceItem] = []
        var leftOut = 0
        for address in state.items.keys where scanner == nil || address.scanner == scanner {
            guard let item = state.shown(address), !InspectorState.isUnset(item) else { continue }
            if item.isMasked {
                leftOut += 1
                continue
            }
            items.append(item)
        }
        let agent: JSONObject = [
            "name": .string(state.hello.agent), "pid": .integer(state.hello.pid),
            "platform": .string(state.hello.platform),
        ]
        let snapshot = JarvisSnapshot(agent: agent, exported: now, items: items.sorted(by: JarvisSnapshot.order))
        return (snapshot.text, leftOut)
    }
}
