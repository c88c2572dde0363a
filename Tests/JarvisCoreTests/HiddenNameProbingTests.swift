import Foundation
import Testing

@testable import JarvisCore

/// A scanner over memory that counts every question the hub asks it, `storedNames` included
/// (where a file-backed scanner resolves links and looks for files), and calls containers
/// named `sys.*` the operating system's own.
final class ProbeCountingScanner: PreferenceScanner {
    let id = "probe"
    let info = ScannerInfo(displayName: "probe", isWritable: true)
    let names: [String]
    private let log = Locked<[(call: String, name: String)]>([])

    init(containers: [String]) { names = containers }

    /// How often each requirement was called, by name.
    var calls: [String: Int] { log.current.reduce(into: [:]) { $0[$1.call, default: 0] += 1 } }

    /// Every call in order, with the container (or key) it named; emptied by reading it.
    func takeLog() -> [(call: String, name: String)] { log.withLock { log in defer { log = [] }; return log } }

    private func count(_ call: String, _ name: String = "") { log.withLock { $0.append((call, name)) } }

    func containers() throws -> [ContainerInfo] {
        count("containers")
        return names.map { ContainerInfo($0) }
    }

    func container(named name: String) throws -> ContainerInfo? {
        count("container(named:)", name)
        return names.contains(name) ? ContainerInfo(name) : ContainerInfo(name, exists: false)
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        count("read", request.container + "/" + (request.keys ?? []).joined(separator: ","))
        return names.contains(request.container) ? [ScannedEntry(key: "token", value: "abc")] : []
    }

    func write(_ request: WriteRequest) throws { count("write", request.container) }

    func storedNames(container: String, key: String?) -> StoredNames {
        count("storedNames", container + "/" + (key ?? ""))
        return StoredNames(isSystem: container.hasPrefix("sys."))
    }
}

/// Issue 17 item 8: what a client can learn about names it may not see.
@Suite struct HiddenNameProbingTests {
    @Test func aHiddenNameIsAskedAboutOnlyAsAStandInWithTheCallsOfAMissingOne() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "probe")
        configuration.hide(keys: "secret_*")
        let hub = JarvisHub(configuration: configuration)
        let scanner = ProbeCountingScanner(containers: ["app", "private_data"])
        hub.register(scanner)
        /// The calls each request makes for `container` and `key`, by name only.
        func calls(_ container: String, _ key: String) -> [[String]] {
            let address = PreferenceAddress(scanner: "probe", container: container, key: key)
            var made: [[String]] = []
            let requests: [() throws -> Void] = [
                { _ = try hub.get(address) }, { _ = try hub.get(address, pointer: JSONPointer(parsing: "/a")) },
                { _ = try hub.delete(address) }, { _ = try hub.reset(address) },
                { _ = try hub.set(address, to: "x") },
            ]
            for request in requests {
                _ = try? request()
                let log = scanner.takeLog()
                made.append(log.map(\.call))
                // A hidden name is never named to the scanner: neither its container nor its key.
                let named = log.filter { $0.name.contains("private_") || $0.name.contains("secret_") }
                #expect(named.isEmpty, "\(container)/\(key) was named to the scanner: \(named)")
            }
            return made
        }
        // A missing container: what a hidden one must cost, whether it exists or not (no
        // write: a set there creates it, which a hidden name never does).
        let missing = calls("public_missing", "token")
        #expect(missing.joined().contains("read"), "\(missing)")
        for container in ["private_data", "private_missing"] {
            #expect(Array(calls(container, "token").prefix(4)) == Array(missing.prefix(4)), "\(container)")
        }
        // A hidden key of a visible container costs what a missing key of it costs.
        #expect(Array(calls("app", "secret_pin").prefix(4)) == Array(calls("app", "missing_pin").prefix(4)))
        // Nothing hidden is ever answered.
        let hidden = PreferenceAddress(scanner: "probe", container: "private_data", key: "token")
        #expect(throws: JarvisError.self) { try hub.get(hidden) }
        #expect(throws: JarvisError.self) { try hub.set(hidden, to: "x") }
        #expect(scanner.calls["write"] == nil, "\(scanner.calls)")
    }

    @Test func aStandInIsAsLongAsTheNameWithItsExtension() {
        let absent = "0123456789abcdef0123456789abcdef"
        // Looking up a longer name costs more: the stand-in is as long as the name...
        let file = "config/private-settings.json"
        #expect(ScannerVisibility.standIn(for: file, absent: absent) == "0123456789abcdef0123456.json")
        let long = String(repeating: "x", count: 40) + ".plist"
        #expect(ScannerVisibility.standIn(for: long, absent: absent).count == long.count)
        // ...but never shorter than 12 characters of the random name, so nobody can make it.
        #expect(ScannerVisibility.standIn(for: "com.apple.finder", absent: absent) == "0123456789ab.finder")
        #expect(ScannerVisibility.standIn(for: ".GlobalPreferences", absent: absent) == "0123456789abcdef01")
    }

    @Test func theHiddenSystemCountDoesNotFollowTheContainerPattern() throws {
        let hub = JarvisHub(configuration: .debug)
        hub.register(ProbeCountingScanner(containers: ["app", "sys.editor", "sys.finder", "sys.dock"]))
        func count(_ pattern: String?) throws -> Int {
            try hub.list(ListQuery(container: pattern.map { GlobPattern($0) })).hiddenSystemContainers
        }
        let all = try count(nil)
        #expect(all == 3)
        // Narrowing one letter at a time would otherwise spell out the hidden names.
        for pattern in ["sys.e*", "sys.f*", "sys.x*", "app", "sys.editor"] {
            #expect(try count(pattern) == all, "\(pattern)")
        }
    }

    /// Issue 28 item 6: a missing container's error offers to create it only for a write that
    /// would, naming the scanners that create containers; a hidden name answers the same.
    @Test func aMissingContainerIsOfferedForCreationOnlyByAWriteThatWould() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "probe")
        let hub = JarvisHub(configuration: configuration)
        hub.register(ProbeCountingScanner(containers: ["app", "private_data"]))
        func message(_ name: String, creating: Bool) -> String? {
            let error = #expect(throws: JarvisError.self) { try hub.owner(ofContainer: name, creating: creating) }
            return error?.message.replacingOccurrences(of: name, with: "X")
        }
        let read = message("nowhere", creating: false)
        #expect(read == "no container 'X' in any scanner (run `jarvis ls` to see what exists)")
        let write = message("nowhere", creating: true)
        #expect(write == "no container 'X' in any scanner (run `jarvis ls` to see what exists); to create it, name its scanner: probe:X")
        #expect(message("private_data", creating: false) == read)
        #expect(message("private_data", creating: true) == write)
        // Editing off: nothing can be created, so nothing is offered.
        try hub.update(configuration: .production)
        #expect(message("nowhere", creating: true) == read)
    }
}
