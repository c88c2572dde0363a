// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisScanners

    /// Benchmark 1: scanning a defaults suite against decoding the same file with
    /// `PropertyListSerialization` alone.
    ///
    /// Before every timed run the file is replaced (same bytes, new inode and modification time)
    /// so that a scanner that caches parsed suites must parse again: the figure is the scan, not
    /// the cache. The cached case is reported apart.
    enum ScanBench {
        /// Times one way of reading the suite; `replace` rewrites the file first when true.
        private static func sample(
            runs: Int, data: Data, folder: URL, replace: Bool = true, _ body: () throws -> Int
        ) throws -> [Double] {
            var samples: [Double] = []
            if !replace { try Fixture.write(data, into: folder) }
            for _ in 0..<runs {
                if replace { try Fixture.write(data, into: folder) }
                let (count, seconds) = try timed(body)
                guard count > 0 else { throw BenchFailure("the scan returned nothing; is the fixture readable?") }
                samples.append(seconds * 1000)
            }
            return samples
        }

        /// The medians of raw decode, scanner read and hub list for one suite size.
        struct Sizes {
            var raw: [Double]
            var read: [Double]
            var list: [Double]
            var cachedList: [Double]
            var bytes: Int
        }

        static func measure(keys: Int, runs: Int) throws -> Sizes {
            let folder = try Fixture.temporaryFolder("scan")
            defer { try? FileManager.default.removeItem(at: folder) }
            let data = try Fixture.plist(count: keys)
            let url = try Fixture.write(data, into: folder)
            let scanner = DefaultsScanner.defaults(folder: folder)
            let hub = JarvisHub(configuration: .debug)
            hub.register(scanner)
            let query = ListQuery(scanner: scanner.id, container: GlobPattern(Fixture.suite))
            // One untimed pass of each warms code paths and the page cache.
            _ = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
            _ = try hub.list(query)
            let raw = try sample(runs: runs, data: data, folder: folder) {
                let object = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
                return (object as? [String: Any])?.count ?? 0
            }
            let read = try sample(runs: runs, data: data, folder: folder) {
                try scanner.read(ReadRequest(container: Fixture.suite)).count
            }
            let list = try sample(runs: runs, data: data, folder: folder) { try hub.list(query).items.count }
            let cachedList = try sample(runs: runs, data: data, folder: folder, replace: false) {
                try hub.list(query).items.count
            }
            return Sizes(raw: raw, read: read, list: list, cachedList: cachedList, bytes: data.count)
        }

        static func run(_ options: BenchOptions) throws -> Section {
            let small = options.size(10_000, quick: 1_000)
            let large = options.size(100_000, quick: 10_000)
            let runs = options.runCount
            let first = try measure(keys: small, runs: runs)
            let second = try measure(keys: large, runs: max(2, runs / 2 + 1))
            var section = Section(
                name: "scan",
                title:
                    "defaults suite of \(small) keys (\(megabytes(first.bytes)) MB XML plist) and \(large) keys (\(megabytes(second.bytes)) MB)"
            )
            for (keys, sizes) in [(small, first), (large, second)] {
                section.add("raw decode, \(keys) keys (PropertyListSerialization)", unit: "ms", samples: sizes.raw)
                section.add("scanner read, \(keys) keys", unit: "ms", samples: sizes.read)
                section.add("hub.list, \(keys) keys", unit: "ms", samples: sizes.list)
                section.add("hub.list, \(keys) keys, file unchanged", unit: "ms", samples: sizes.cachedList)
            }
            let raw = Stats.median(first.raw)
            section.atMost("scanner read / raw decode, \(small) keys", Stats.median(first.read) / raw, 1.5)
            section.atMost("hub.list / raw decode, \(small) keys", Stats.median(first.list) / raw, 1.5)
            let perKeySmall = Stats.median(first.list) / Double(small)
            let perKeyLarge = Stats.median(second.list) / Double(large)
            let rawGrowth = Stats.median(second.raw) / raw
            // PropertyListSerialization itself may grow faster than linearly; what Jarvis adds on
            // top of it should not, so growth is judged relative to the raw decode's.
            section.atMost(
                "hub.list / raw decode at \(large) keys, over the same at \(small) (linear overhead = 1)",
                (Stats.median(second.list) / Stats.median(second.raw)) / (Stats.median(first.list) / raw), 1.5)
            section.notes.append(
                "time per key at \(large) keys / at \(small) keys: hub.list \(Report.number(perKeyLarge / perKeySmall))×, raw decode \(Report.number(rawGrowth / Double(large / small)))×"
            )
            section.notes.append(
                "the file is replaced (new inode and mtime) before each timed run, so caches keyed on the file cannot answer"
            )
            return section
        }

        static func megabytes(_ bytes: Int) -> String {
            Report.number(Double(bytes) / 1_000_000)
        }
    }
#endif
