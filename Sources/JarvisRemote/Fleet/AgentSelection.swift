import JarvisCore

/// Which agents a command acts on at once, as typed after `--agents` (or in `JARVIS_AGENTS`):
/// `all`, or a comma-separated list of names, pids, bundle ids, identities and globs.
///
/// A selection is always asked for by name: nothing builds one unless a person typed it, so a
/// command never reaches several agents by accident. Each term names every running agent it
/// matches (two agents both called `App` are both `App`); a term that matches none is kept as
/// ``Resolved/unmatched`` so the face reports it rather than silently acting on fewer agents.
public struct AgentSelection: Sendable, Hashable, CustomStringConvertible {
    /// The terms as typed, in order, without empty ones.
    public let terms: [String]

    /// Reads `--agents`' text.
    /// - Throws: ``JarvisError`` `.invalidParams` for text that names nothing (empty, or
    ///   only commas), or `all` beside other terms.
    public init(parsing text: String) throws(JarvisError) {
        let terms = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !terms.isEmpty else {
            throw JarvisError(
                .invalidParams, "--agents names no agent; give all, NAME,NAME or a glob such as 'App*'")
        }
        if terms.count > 1, terms.contains(Self.everyAgent) {
            throw JarvisError(.invalidParams, "--agents all already names every agent; give it alone")
        }
        self.terms = terms
    }

    /// The word that names every running agent.
    public static let everyAgent = "all"

    /// The terms joined as typed.
    public var description: String { terms.joined(separator: ",") }

    /// The agents a selection names among those running now.
    public struct Resolved: Sendable, Hashable {
        /// The agents named, each once, in the order of the list they were chosen from.
        public var agents: [AgentRecord]
        /// The terms that matched no running agent.
        public var unmatched: [String]

        /// Agents chosen otherwise than by typed terms (the browser's comparison, by pid).
        package init(agents: [AgentRecord], unmatched: [String] = []) {
            self.agents = agents
            self.unmatched = unmatched
        }
    }

    /// The running agents the terms name: `all` every one; a term matches an agent whose
    /// name, pid, bundle id or identity it equals, or, holding `*`, `?` or `[`, whose name,
    /// bundle id or identity it matches as a glob.
    public func resolve(among running: [AgentRecord]) -> Resolved {
        if terms == [Self.everyAgent] { return Resolved(agents: running, unmatched: []) }
        var chosen = Set<Int>()
        var unmatched: [String] = []
        for term in terms {
            let matching = running.indices.filter { Self.term(term, matches: running[$0]) }
            if matching.isEmpty { unmatched.append(term) }
            chosen.formUnion(matching)
        }
        return Resolved(agents: running.indices.filter(chosen.contains).map { running[$0] }, unmatched: unmatched)
    }

    private static func term(_ term: String, matches record: AgentRecord) -> Bool {
        let names = [record.name, record.identity] + (record.bundleID.map { [$0] } ?? [])
        if term.contains(where: { "*?[".contains($0) }) {
            let pattern = GlobPattern(term)
            return names.contains { pattern.matches($0) }
        }
        return names.contains(term) || String(record.pid) == term
    }
}
