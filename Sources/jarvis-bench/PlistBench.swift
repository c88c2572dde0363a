// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisScanners

    /// Benchmark: one `set` in a large defaults suite, and reading such a suite for a listing,
    /// against Python's `plistlib` reading and writing the same file (issue 34, item 2).
    ///
    /// The suite is the benchmark fixture, as an XML and as a binary property list, at 1,000,
    /// 10,000 and 100,000 keys. A set is timed as the agent makes it: the suite was read
    /// before (as the hub reads a key before writing it), then one key is stored, through the
    /// plist folder store's atomic, checked write (with its `fsync`s). A read for a listing
    /// starts from a file the store has not seen (same bytes, new inode), so it parses.
    /// `plistlib` is timed inside one `python3` (no interpreter start-up): reading the file
    /// and parsing it, and that plus changing one key, serialising and writing the file.
    enum PlistBench {
        /// `plistlib`'s medians for one file: read, and read + change + write, in milliseconds.
        private static let python = """
            import plistlib, statistics, sys, time
            path, runs = sys.argv[1], int(sys.argv[2])
            reads, cycles = [], []
            for run in range(runs):
                start = time.perf_counter()
                with open(path, 'rb') as f: data = f.read()
                fmt = plistlib.FMT_BINARY if data.startswith(b'bplist') else plistlib.FMT_XML
                value = plistlib.loads(data)
                read = time.perf_counter()
                value['bench.key.000001'] = run
                with open(path + '.py', 'wb') as f: f.write(plistlib.dumps(value, fmt=fmt, sort_keys=False))
                end = time.perf_counter()
                reads.append((read - start) * 1000)
                cycles.append((end - start) * 1000)
            print(statistics.median(reads), statistics.median(cycles))
            """

        static func run(_ options: BenchOptions) throws -> Section {
            let sizes = options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]
            let runs = max(3, options.runCount)
            var section = Section(
                name: "plist",
                title:
                    "one set in, and a read of, a defaults suite of \(sizes.map(String.init).joined(separator: "/")) keys, against python3 plistlib"
            )
            for keys in sizes {
                let xml = [UInt8](try Fixture.plist(count: keys))
                let binary = try PropertyListCodec.write(try PropertyListCodec.read(xml).value, as: .binary)
                for (format, bytes) in [("binary", binary), ("XML", xml)] {
                    let measured = try measure(bytes, runs: keys >= 100_000 ? runs : runs * 2)
                    let label = "\(keys) keys, \(format) (\(ScanBench.megabytes(bytes.count)) MB)"
                    section.add("jarvis set, \(label)", unit: "ms", samples: measured.set)
                    section.add("plistlib read + write, \(label)", unit: "ms", samples: [measured.plistlibCycle])
                    section.add("jarvis read for a listing, \(label)", unit: "ms", samples: measured.read)
                    section.add("plistlib read, \(label)", unit: "ms", samples: [measured.plistlibRead])
                    let setRatio = Stats.median(measured.set) / measured.plistlibCycle
                    section.atMost("set / plistlib read + write, \(label)", setRatio, format == "binary" ? 0.25 : 0.5)
                    section.atMost(
                        "read / plistlib read, \(label)", Stats.median(measured.read) / measured.plistlibRead, 1.0)
                }
            }
            section.notes.append(
                "jarvis set: the suite read before, one key stored through the folder store's checked, atomic write (fsync of file and folder); plistlib: the same file read, one key changed, written (no fsync), timed inside python3"
            )
            return section
        }

        private struct Measured {
            var set: [Double]
            var read: [Double]
            var plistlibRead: Double
            var plistlibCycle: Double
        }

        private static func measure(_ bytes: [UInt8], runs: Int) throws -> Measured {
            let folder = try Fixture.temporaryFolder("plist")
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try Fixture.write(Data(bytes), into: folder)
            // Reads: a new store each time would also work; a replaced file is what the agent meets.
            let scanner = DefaultsScanner.defaults(folder: folder)
            var read: [Double] = []
            for _ in 0..<runs {
                try Fixture.write(Data(bytes), into: folder)
                let (count, seconds) = try timed { try scanner.read(ReadRequest(container: Fixture.suite)).count }
                guard count > 0 else { throw BenchFailure("the suite read empty") }
                read.append(seconds * 1000)
            }
            // Sets: the suite as the agent holds it after a read, then one key per run.
            try Fixture.write(Data(bytes), into: folder)
            _ = try scanner.read(ReadRequest(container: Fixture.suite))
            var set: [Double] = []
            for run in 0..<runs {
                let request = WriteRequest(
                    container: Fixture.suite, key: "bench.key.000001", change: .set(.integer(Int64(run))))
                let (_, seconds) = try timed { try scanner.write(request) }
                set.append(seconds * 1000)
            }
            let (plistlibRead, plistlibCycle) = try plistlib(url, runs: runs)
            return Measured(set: set, read: read, plistlibRead: plistlibRead, plistlibCycle: plistlibCycle)
        }

        /// Runs the `plistlib` timing over the file Fixture wrote (the one the sets changed).
        private static func plistlib(_ url: URL, runs: Int) throws -> (Double, Double) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", python, url.path, String(runs)]
            let output = Pipe()
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                throw BenchFailure("python3 did not start (\(error)); install python3 to compare with plistlib")
            }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            guard process.terminationStatus == 0, numbers.count == 2 else {
                throw BenchFailure("python3 plistlib timing failed: \(text)")
            }
            return (numbers[0], numbers[1])
        }
    }
#endif
