// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation

    /// The data the benchmarks read: a defaults suite of mixed types, as an XML property list.
    ///
    /// XML is what the folder-backed defaults store writes by default here; every kind a
    /// defaults suite holds appears in turn, including `Data` holding a JSON-encoded `Codable`.
    enum Fixture {
        static let suite = "com.example.bench"

        /// A fresh temporary folder with a short path (sockets live in such folders too).
        static func temporaryFolder(_ label: String) throws -> URL {
            let folder = URL(fileURLWithPath: "/tmp", isDirectory: true)
                .appendingPathComponent("jb-\(label)-\(UUID().uuidString.prefix(6))", isDirectory: true)
            // Private (0700): agents refuse a runtime folder that others could enter.
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return folder
        }

        /// The suite's values: `count` keys cycling through every kind.
        static func values(count: Int) -> [String: Any] {
            var values: [String: Any] = [:]
            values.reserveCapacity(count)
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            for index in 0..<count {
                let key = String(format: "bench.key.%06d", index)
                switch index % 9 {
                case 0: values[key] = "a string value number \(index), long enough to look like a real setting"
                case 1: values[key] = index * 7919
                case 2: values[key] = Double(index) / 7.0
                case 3: values[key] = index % 2 == 0
                case 4: values[key] = base.addingTimeInterval(Double(index))
                case 5: values[key] = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* index) })
                case 6: values[key] = ["first \(index)", "second", "third"]
                case 7: values[key] = ["name": "item \(index)", "count": index, "ratio": 0.5] as [String: Any]
                default: values[key] = Data(#"{"id":\#(index),"title":"codable \#(index)","done":false}"#.utf8)
                }
            }
            return values
        }

        /// Encodes the suite.
        static func plist(count: Int) throws -> Data {
            try PropertyListSerialization.data(fromPropertyList: values(count: count), format: .xml, options: 0)
        }

        /// Writes `data` as `<suite>.plist` in `folder`, replacing the file (a new inode and
        /// modification time, so no reader can keep a cache of the old one).
        @discardableResult
        static func write(_ data: Data, suite: String = suite, into folder: URL) throws -> URL {
            let url = folder.appendingPathComponent(suite + ".plist")
            try data.write(to: url, options: .atomic)
            return url
        }
    }
#endif
