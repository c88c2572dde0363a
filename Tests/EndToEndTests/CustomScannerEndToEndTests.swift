import Foundation
import JarvisCore
import JarvisRemote
import Testing

/// A scanner written the way a host would write one, embedded in an agent running in this
/// process, driven through the real socket by the real `jarvis` binary.
@Suite struct CustomScannerEndToEndTests {
    /// Feature flags held by the "host": the whole plugin is these few lines, `Sendable`
    /// through the public `Locked` box and writable because its info says so.
    final class FeatureFlags: PreferenceScanner {
        let id = "flags"
        let info = ScannerInfo(displayName: "Feature flags", isWritable: true)
        let values = Locked<[String: Bool]>(["new_onboarding": false, "dark_launch": true])

        func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }

        func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            values.current.map { ScannedEntry(key: $0.key, value: .boolean($0.value)) }
        }

        func write(_ request: WriteRequest) throws {
            switch request.change {
            case .set(.boolean(let flag)): values.withLock { $0[request.key] = flag }
            case .set(let other): throw JarvisError(.typeMismatch, "feature flags are booleans; got \(other.type)")
            case .delete: values.withLock { $0[request.key] = nil }
            }
        }
    }

    @Test func theRealCLIReadsAndChangesAHostWrittenScanner() throws {
        let sandbox = try Sandbox()
        let flags = FeatureFlags()
        let agent = try JarvisAgent.start(
            scanners: [flags],
            options: .init(name: "custom-host", runtimeDirectory: sandbox.runtime, journalFolder: sandbox.journalFolder))
        defer { agent.stop() }

        let listing = try sandbox.jarvis("ls")
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("flags:features"))
        #expect(listing.stdout.contains("new_onboarding"))
        let set = try sandbox.jarvis("set", "features", "new_onboarding", "true", "--bool")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(flags.values.current["new_onboarding"] == true)
        // Without a type the flag stays a boolean, so the CLI refuses "maybe" itself...
        let kept = try sandbox.jarvis("set", "features", "new_onboarding", "maybe")
        #expect(kept.status == 64 && kept.stderr.contains("is not a boolean"), "\(kept.stderr)")
        // ...and asked to store text, the scanner's own refusal reaches the user.
        let refused = try sandbox.jarvis("set", "features", "new_onboarding", "maybe", "--string")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("feature flags are booleans"))
        let removed = try sandbox.jarvis("rm", "flags:features", "--match", "dark_*")
        #expect(removed.stdout.contains("removed 1 key"))
        #expect(flags.values.current["dark_launch"] == nil)
        #expect(try sandbox.jarvis("get", "features", "new_onboarding").stdout == "true\n")
    }

    /// A scanner that implements nothing but reading is read-only, and says so consistently:
    /// in `scanners`, in every item, and in the answer to a write.
    struct ReadOnlyFlags: PreferenceScanner {
        let id = "flags"
        func containers() throws -> [ContainerInfo] { [ContainerInfo("features")] }
        func read(_ request: ReadRequest) throws -> [ScannedEntry] {
            [ScannedEntry(key: "new_onboarding", value: .boolean(false))]
        }
    }

    @Test func aScannerWithoutWriteIsReadOnlyEverywhere() throws {
        let sandbox = try Sandbox()
        let agent = try JarvisAgent.start(
            scanners: [ReadOnlyFlags()],
            options: .init(name: "read-only-host", runtimeDirectory: sandbox.runtime, journalFolder: sandbox.journalFolder))
        defer { agent.stop() }
        let listing = try sandbox.jarvis("ls", "--json")
        #expect(listing.stdout.contains(#""readOnly":true"#), "\(listing.stdout)")
        let set = try sandbox.jarvis("set", "features", "new_onboarding", "true", "--bool")
        #expect(set.status == 1)
        #expect(set.stderr.contains("scanner 'flags' is read-only"), "\(set.stderr)")
    }
}
