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
    private let counts = Locked<[String: Int]>([:])

    init(containers: [String]) { names = containers }

    /// How often each requirement was called, by name.
    var calls: [String: Int] { counts.current }

    private func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

    func containers() throws -> [ContainerInfo] {
        count("containers")
        return names.map { ContainerInfo($0) }
    }

    func container(named name: String) throws -> ContainerInfo? {
        count("container(named:)")
        return names.contains(name) ? ContainerInfo(name) : ContainerInfo(name, exists: false)
    }

    func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        count("read")
        return names.contains(request.container) ? [ScannedEntry(key: "token", value: "abc")] : []
    }

    func write(_ request: WriteRequest) throws { count("write") }

    func storedNames(container: String, key: String?) -> StoredNames {
        count("storedNames")
        return StoredNames(isSystem: container.hasPrefix("sys."))
    }
}

/// Issue 17 item 8: what a client can learn about names it may not see.
@Suite struct HiddenNameProbingTests {
    @Test func aNameHiddenByItsOwnTextIsRefusedBeforeTheScannerIsAsked() throws {
        var configuration = JarvisConfiguration.debug
        configuration.hide(containers: "private_*", in: "probe")
        configuration.hide(keys: "secret_*")
        let hub = JarvisHub(configuration: configuration)
        let scanner = ProbeCountingScanner(containers: ["app", "private_data"])
        hub.register(scanner)
        // One that exists and one that does not: both must stop before storage is touched.
        for container in ["private_data", "private_missing"] {
            let address = PreferenceAddress(scanner: "probe", container: container, key: "token")
            #expect(throws: JarvisError.self) { try hub.get(address) }
            #expect(throws: JarvisError.self) { try hub.set(address, to: "x") }
            #expect(throws: JarvisError.self) { try hub.delete(address) }
            // A reset of what is not there (or hidden) answers that nothing was removed.
            #expect((try? hub.reset(address))?.removed == nil)
        }
        #expect(scanner.calls.isEmpty, "the scanner was asked: \(scanner.calls)")
        // A hidden key of a visible container: the container's names are asked, the key never read.
        let key = PreferenceAddress(scanner: "probe", container: "app", key: "secret_pin")
        #expect(throws: JarvisError.self) { try hub.get(key) }
        #expect(scanner.calls["read"] == nil, "\(scanner.calls)")
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
}
