// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore

    /// The machine a run measured: what a reader needs to compare figures, and no paths.
    struct Machine {
        var cores: Int
        var memoryBytes: UInt64
        var os: String
        var swift: String

        static func current() -> Machine {
            let info = ProcessInfo.processInfo
            return Machine(
                cores: info.activeProcessorCount, memoryBytes: info.physicalMemory, os: operatingSystem(),
                swift: swiftVersion())
        }

        var summary: String {
            "\(cores) cores, \(Report.number(Double(memoryBytes) / Double(1 << 30))) GiB, \(os), \(swift)"
        }

        var json: JSONValue {
            .object([
                "cores": .number(JSONNumber(cores)), "memoryBytes": .number(JSONNumber(Int64(clamping: memoryBytes))),
                "os": .string(os), "swift": .string(swift),
            ])
        }

        private static func operatingSystem() -> String {
            var name = ProcessInfo.processInfo.operatingSystemVersionString
            if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
                let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
            {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            var system = utsname()
            uname(&system)
            let kernel = withUnsafeBytes(of: &system.release) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return kernel.isEmpty ? name : "\(name), kernel \(kernel)"
        }

        /// The toolchain's version line (`Swift version 6.3.1 (…)`), or what the compiler knew.
        private static func swiftVersion() -> String {
            if let output = try? ChildProcess.output(of: "swift", ["--version"]),
                let line = output.split(separator: "\n").first(where: { $0.contains("Swift version") })
            {
                let text = String(line)
                if let range = text.range(of: "Swift version ") {
                    return "Swift " + (text[range.upperBound...].split(separator: " ").first.map(String.init) ?? "")
                }
            }
            #if compiler(>=6.3)
                return "Swift 6.3 or later"
            #else
                return "Swift 6"
            #endif
        }
    }
#endif
