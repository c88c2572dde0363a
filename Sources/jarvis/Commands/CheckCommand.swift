import Foundation
import JarvisCore
import JarvisRemote

/// `jarvis check`: what the host's key catalog does not expect, for a UI test or a CI job
/// after a run; exits 1 when anything is found.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "report keys, types and values the key catalog does not expect\n(exit status 1 when anything is found)"
    static let usage = """
        jarvis check [CONTAINER] [--json]

          CONTAINER   only this container (a glob); every container when absent

        Reports stored keys the host's key catalog does not declare, values of a type
        it does not allow, values outside its choices or range, values equal to their
        default, containers it names that are missing, and containers over 1 MB (tvOS
        stops an app past 1 MB). Exits 0 when nothing is found, 1 when something is:
        run it after a UI test or in CI.
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        try arguments.finish(maxPositionals: 1, command: name)
        let client = try context.connect()
        let result = try client.check(container: arguments.positionals.first)
        if context.json {
            Terminal.outBytes(JSONWriter.bytes(result.json) + [0x0A])
        } else if result.findings.isEmpty {
            Terminal.out(result.nothingFound)
        } else {
            for finding in result.findings.map(\.finding) {
                let place = [finding.container, finding.key].compactMap { $0 }.joined(separator: " ")
                Terminal.out("\(finding.kind.rawValue): \(Terminal.escaped(place)): \(Terminal.escaped(finding.message))")
            }
            Terminal.out("\(result.findings.count) found")
        }
        if !result.findings.isEmpty { exit(1) }
    }
}
