import Foundation
import Testing

/// `.github/workflows/ci.yml` cannot run here, so it is kept valid by loading it with a real
/// YAML parser (PyYAML, installed by `.ci/run`) and checking what each job does.
@Suite(
    .enabled(
        if: OptionalTool.hasPyYAML || OptionalTool.inCI,
        OptionalTool.hint(["python3 with PyYAML"], install: "apt-get install python3-yaml")))
struct CIWorkflowTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The workflow as PyYAML reads it, turned into JSON (YAML 1.1 reads the key `on` as true).
    func workflow() throws -> [String: Any] {
        let script = """
            import json, sys, yaml
            with open(sys.argv[1]) as f:
                doc = yaml.safe_load(f)
            if True in doc:
                doc['on'] = doc.pop(True)
            print(json.dumps(doc))
            """
        let file = Self.root.appendingPathComponent(".github/workflows/ci.yml")
        let sandbox = try Sandbox()
        let result = try sandbox.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path])
        guard result.status == 0 else {
            throw HarnessError(
                "ci.yml does not load (is python3-yaml installed? .ci/run installs it): \(result.stderr)")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("ci.yml is not a mapping")
        }
        return object
    }

    func job(_ name: String, in workflow: [String: Any]) throws -> (runsOn: String, commands: String) {
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let job = try #require(jobs[name] as? [String: Any], "no job '\(name)'")
        let steps = try #require(job["steps"] as? [[String: Any]], "job '\(name)' has no steps")
        #expect(steps.contains { ($0["uses"] as? String)?.hasPrefix("actions/checkout@") == true })
        for step in steps {
            #expect(step["run"] is String || step["uses"] is String, "a step of '\(name)' neither runs nor uses")
        }
        return (job["runs-on"] as? String ?? "", steps.compactMap { $0["run"] as? String }.joined(separator: "\n"))
    }

    @Test func runsOnPushAndPullRequest() throws {
        let triggers = try #require(try workflow()["on"] as? [String: Any])
        #expect(Set(triggers.keys) == ["push", "pull_request"])
    }

    @Test func theLinuxJobRunsTheCIScript() throws {
        let linux = try job("linux", in: try workflow())
        #expect(linux.runsOn.hasPrefix("ubuntu"))
        #expect(linux.commands.contains("bash .ci/run"))
        #expect(FileManager.default.isReadableFile(atPath: Self.root.appendingPathComponent(".ci/run").path))
    }

    @Test func theMacOSJobBuildsTestsAndBuildsEveryLibraryForTheIOSSimulator() throws {
        let macos = try job("macos", in: try workflow())
        #expect(macos.runsOn.hasPrefix("macos"))
        #expect(macos.commands.contains("swift build"))
        #expect(macos.commands.contains("swift test"))
        #expect(macos.commands.contains("xcodebuild build"))
        #expect(macos.commands.contains("-destination 'generic/platform=iOS Simulator'"))
        // Every library product of Package.swift is built, and nothing else.
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = manifest.components(separatedBy: ".library(name: \"").dropFirst()
            .compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(!libraries.isEmpty)
        let loop = try #require(macos.commands.split(separator: "\n").first { $0.contains("for scheme in") })
        // `for scheme in A B C; do`: the words between `in` and `;`.
        let list = loop.split(separator: ";").first ?? ""
        let schemes = list.split(separator: " ").drop { $0 != "in" }.dropFirst().map(String.init)
        #expect(Set(schemes) == Set(libraries))
    }
}
