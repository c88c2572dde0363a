import Foundation
import JarvisCore
import JarvisInspector
import JarvisRemote

/// `get`, `ls` and `export` on several agents at once (`--agents`).
enum FleetReads {
    /// One key's value on every agent named.
    static func get(_ resolved: AgentSelection.Resolved, container: String, key: String, reveal: Bool, context: Context)
        -> Never
    {
        FleetOutput.run(resolved, context: context) { agent, client in
            let place = try agent.itemPlace(container: container, key: key)
            let item = try client.get(place, reveal: reveal)
            var shown = InspectorState.preview(item, limit: 200)
            if item.catalog?.isUnset == true, let fallback = item.catalog?.defaultValue {
                shown = ValueFormat.preview(fallback, limit: 200) + " (unset: the key catalog's default)"
            }
            return FleetOutcome.Result(.ok, value: shown, detail: WireItem.encode(item))
        }
    }

    /// The listing of every agent named: each agent's keys, then one result per agent.
    static func list(
        _ resolved: AgentSelection.Resolved, params: @escaping @Sendable (Context) throws -> Wire.ListParams,
        context: Context
    ) -> Never {
        let listings = Locked<[String: [PreferenceItem]]>([:])
        let json = context.json
        let report = FleetRun.run(resolved, bound: context.agentsBound, clientName: "jarvis-cli") {
            (record, client) throws(JarvisError) -> FleetOutcome.Result in
            let request: Wire.ListParams
            do {
                request = try params(Context(client: client, json: json))
            } catch let error as JarvisError {
                throw error
            } catch {
                return FleetOutcome.Result(.failed, reason: String(describing: error))
            }
            let listing = try client.listing(request)
            listings.withLock { $0["\(record.pid) \(record.socket ?? record.tcp ?? "")"] = listing.items }
            let containers = Set(listing.items.map { "\($0.address.scanner):\($0.address.container)" }).count
            let problems = listing.problems.isEmpty ? "" : ", \(listing.problems.count) problem(s)"
            return FleetOutcome.Result(
                .ok, value: "\(listing.items.count) key(s) in \(containers) container(s)\(problems)",
                detail: listing.json)
        }
        if !context.json {
            // Each agent's keys, as `AGENT  SCANNER:CONTAINER  KEY  VALUE`, before the results.
            let labels = FleetRun.labels(for: resolved.agents)
            let all = listings.withLock { $0 }
            for (index, record) in resolved.agents.enumerated() {
                for item in all["\(record.pid) \(record.socket ?? record.tcp ?? "")"] ?? [] {
                    let line =
                        "\(labels[index])  \(item.address.scanner):\(item.address.container)  \(item.address.key)  "
                        + InspectorState.preview(item, limit: 60)
                    Terminal.out(Terminal.fit(Terminal.escaped(line), Terminal.width))
                }
            }
        }
        FleetOutput.finish(report, context: context)
    }

    /// Every agent's snapshot, each to its own file in `folder`: `IDENTITY.json`, with
    /// `-PID` when two agents share an identity.
    static func export(
        _ resolved: AgentSelection.Resolved, folder: String, reveal: Bool,
        filters: @escaping @Sendable (Context) throws -> (scanner: String?, container: String?), key: String?,
        context: Context
    ) throws -> Never {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("with --agents, --output names a folder (one snapshot per agent is written there)")
        }
        let names = fileNames(for: resolved.agents)
        let byPid = Dictionary(zip(resolved.agents.map(\.pid), names), uniquingKeysWith: { first, _ in first })
        FleetOutput.run(resolved, context: context) { agent, client in
            let (scanner, container) = try filters(agent)
            let (snapshot, leftOut) = try client.snapshot(scanner: scanner, container: container, key: key, reveal: reveal)
            let path = folder + "/" + (byPid[client.helloResult.pid.int32] ?? "agent-\(client.helloResult.pid)") + ".json"
            try PrivatePath.replaceFile(path, with: Array(snapshot.text.utf8), mode: reveal ? 0o600 : nil)
            let masked = leftOut.isEmpty ? "" : "; left out \(leftOut.count) masked secret(s)"
            return FleetOutcome.Result(
                .ok, value: "\(snapshot.items.count) item(s) to \(path)\(masked)", detail: .string(path))
        }
    }

    /// A file name per agent from its identity, safe in a folder: `/`, `@` and spaces
    /// become `_`; `-PID` is added where two agents would share one.
    static func fileNames(for agents: [AgentRecord]) -> [String] {
        let plain = agents.map { record in
            String(record.identity.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        }
        var counts: [String: Int] = [:]
        for name in plain { counts[name, default: 0] += 1 }
        return agents.indices.map { counts[plain[$0], default: 0] > 1 ? "\(plain[$0])-\(agents[$0].pid)" : plain[$0] }
    }
}

extension Int64 {
    fileprivate var int32: Int32 { Int32(truncatingIfNeeded: self) }
}
