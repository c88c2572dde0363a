import Foundation
import JarvisCore
import JarvisTransport

/// Turns what a user typed (`--agent`, `JARVIS_AGENT`) into an endpoint: a name, a pid, a
/// Simulator app's bundle id, a socket path or `tcp://host:port`; with nothing typed, the one
/// agent that runs.
public enum AgentLocator {
    /// The endpoint to connect to.
    /// - Throws: ``JarvisError`` `.notFound` when nothing matches (or several agents run and
    ///   none was chosen), with the list of running agents in the message; `.unavailable`
    ///   when the runtime folder is not this user's private folder.
    public static func endpoint(
        for selector: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(JarvisError) -> Endpoint {
        let chosen = selector ?? environment["JARVIS_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
        if let chosen {
            if chosen.hasPrefix("tcp://") || chosen.hasPrefix("unix://") || chosen.contains("/") {
                do {
                    return try Endpoint(parsing: chosen)
                } catch {
                    throw JarvisError(.invalidParams, "'\(chosen)' is not an agent address: \(error)")
                }
            }
            let running = try AgentDirectory.running(environment: environment)
            let matches = running.filter {
                String($0.pid) == chosen || $0.name == chosen || $0.bundleID == chosen || $0.identity == chosen
            }
            switch matches.count {
            case 1: return try endpoint(of: matches[0])
            case 0:
                throw JarvisError(
                    .notFound,
                    "no running agent named or numbered '\(chosen)', nor a Simulator app with that bundle id.\n"
                        + describe(running))
            default:
                throw JarvisError(
                    .notFound,
                    "several agents are named '\(chosen)'; choose one by pid with --agent.\n" + describe(matches))
            }
        }
        let running = try AgentDirectory.running(environment: environment)
        switch running.count {
        case 1: return try endpoint(of: running[0])
        case 0:
            let folder = RuntimeDirectory.current(environment: environment).url.path
            throw JarvisError(
                .notFound,
                "no running agent found in \(folder); start your app (one that embeds JarvisAgent) or the demo (`jarvis demo`), or pass --agent"
            )
        default:
            throw JarvisError(
                .notFound,
                "several agents are running; choose one with --agent NAME|PID|BUNDLE_ID.\n" + describe(running))
        }
    }

    /// The token of a TCP endpoint served by an agent of this user on this machine, read from
    /// its owner-only discovery file; nil for Unix endpoints and for remote or unknown agents.
    ///
    /// The token goes only to exactly the host and port recorded with it: another spelling
    /// of the address (`[::1]` for `127.0.0.1`, `localhost`) may be another listener.
    public static func localToken(
        for endpoint: Endpoint, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard case .tcp = endpoint else { return nil }
        let records = (try? AgentDirectory.running(environment: environment)) ?? []
        return records.first { record in
            guard let tcp = record.tcp, let served = try? Endpoint(parsing: tcp) else { return false }
            return served == endpoint
        }?.token
    }

    private static func endpoint(of record: AgentRecord) throws(JarvisError) -> Endpoint {
        guard let endpoint = record.endpoint else {
            throw JarvisError(.notFound, "the discovery file of agent \(record.pid) names no address it serves on")
        }
        return endpoint
    }

    private static func describe(_ records: [AgentRecord]) -> String {
        guard !records.isEmpty else { return "No agents are running." }
        return "Running agents:\n" + AgentRecord.table(records).map { "  " + $0 }.joined(separator: "\n")
    }
}

extension AgentRecord {
    /// Records as aligned lines: pid, name, address, then device and bundle id where known.
    package static func table(_ records: [AgentRecord]) -> [String] {
        let rows = records.map { record in
            [
                String(record.pid), record.name, record.endpoint?.target ?? "?", record.device ?? "",
                record.bundleID ?? "",
            ]
        }
        var widths = [Int](repeating: 0, count: 5)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined().trimmingCharacters(in: .whitespaces)
        }
    }

    /// `pid  name  address`, then the Simulator device and bundle id when there are.
    package var summary: String {
        var text = "\(pid)  \(name)  \(endpoint?.target ?? "?")"
        if let device { text += "  \(device)" }
        if let bundleID { text += "  \(bundleID)" }
        return text
    }
}
