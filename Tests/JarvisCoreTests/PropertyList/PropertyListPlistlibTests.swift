import Foundation
import Testing

@testable import JarvisCore

/// Round trips with Python's `plistlib` both ways: files it writes are read by the codec and
/// written back byte for byte; files the codec writes are read by `plistlib` to the same values.
@Suite(.enabled(if: PlistlibProcess.runs, "needs python3 (plistlib)"))
struct PropertyListPlistlibTests {
    /// A varied suite, made by plistlib: every type, nesting, repeated values, non-ASCII text,
    /// long data, large counts (so lengths take an integer after the marker).
    static let generator = """
        import random
        random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
        def scalar(i):
            return [
                lambda: 'text %d' % i,
                lambda: 'ñ日本🎉 %d <&>' % i,
                lambda: i * 7919 - 50000,
                lambda: 2**63 - 1 - i,
                lambda: -2**63 + i,
                lambda: 2**64 - 1 - i,
                lambda: i / 7.0,
                lambda: i % 2 == 0,
                lambda: datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=i * 86399),
                lambda: bytes(range(i % 256)) * 3,
                lambda: 'same',
                lambda: '',
            ][i % 12]()
        def value(i, depth):
            if depth < 3 and i % 17 == 0:
                return {'k%d' % j: value(i + j, depth + 1) for j in range(i % 20)}
            if depth < 3 and i % 13 == 0:
                return [value(i + j, depth + 1) for j in range(i % 30)]
            return scalar(i)
        suite = {'key %05d' % i: value(i, 0) for i in range(600)}
        suite['empty dict'] = {}
        suite['empty list'] = []
        suite['uid-free'] = [1, 2.5, True, 'x']
        """

    private func plistlibFile(_ format: String, sortKeys: Bool = true) throws -> [UInt8] {
        try PlistlibProcess.run(
            Self.generator
                + "\nopen(sys.argv[2], 'wb').write(plistlib.dumps(suite, fmt=plistlib.\(format), sort_keys=\(sortKeys ? "True" : "False")))"
        )
    }

    @Test(arguments: ["FMT_BINARY", "FMT_XML"])
    func filesPlistlibWritesAreWrittenBackByteForByte(format: String) throws {
        let file = try plistlibFile(format)
        let read = try PropertyListCodec.read(file)
        #expect(read.format == (format == "FMT_XML" ? .xml : .binary))
        let written = try PropertyListCodec.write(read.value, as: read.format)
        #expect(
            written == file,
            "first difference at byte \(Array(zip(written, file)).firstIndex { $0.0 != $0.1 } ?? min(written.count, file.count))"
        )
    }

    @Test(arguments: ["FMT_BINARY", "FMT_XML"])
    func keyOrderAsWrittenIsKept(format: String) throws {
        let file = try plistlibFile(format, sortKeys: false)
        let read = try PropertyListCodec.read(file)
        #expect(try PropertyListCodec.write(read.value, as: read.format) == file)
    }

    @Test(arguments: [PropertyList.Format.binary, .xml])
    func filesTheCodecWritesReadInPlistlibAsTheSameValues(format: PropertyList.Format) throws {
        // plistlib reads the codec's file and writes it back as binary; the codec reads both.
        let file = try plistlibFile("FMT_BINARY")
        let original = try PropertyListCodec.read(file).value
        let ours = try PropertyListCodec.write(original, as: format)
        let back = try PlistlibProcess.run(
            "v = plistlib.loads(open(sys.argv[1], 'rb').read())\nopen(sys.argv[2], 'wb').write(plistlib.dumps(v, fmt=plistlib.FMT_BINARY, sort_keys=False))",
            input: ours)
        #expect(try PropertyListCodec.read(back).value == PropertyListCodec.read(ours).value)
        #expect(back == file)
    }

    /// plistlib writes offsets and references in the fewest bytes that hold them (1, 2 or 4
    /// here): a file of each width it picks reads to the values it was given (issue 45 item 7).
    @Test(arguments: [(10, 16, 1, 1), (300, 70_000, 4, 2), (70_000, 0, 4, 4)])
    func offsetAndReferenceWidthsPlistlibPicksAreRead(strings: Int, blob: Int, offsetWidth: Int, referenceWidth: Int)
        throws
    {
        let file = try PlistlibProcess.run(
            "open(sys.argv[2], 'wb').write(plistlib.dumps({'items': ['item %d' % i for i in range(\(strings))], 'blob': b'\\xab' * \(blob)}, fmt=plistlib.FMT_BINARY))"
        )
        #expect(file.count > 32)
        #expect(Int(file[file.count - 26]) == offsetWidth && Int(file[file.count - 25]) == referenceWidth)
        let document = try PropertyListDocument(file)
        #expect(document.value(forKey: "items") == .array((0..<strings).map { .string("item \($0)") }))
        #expect(document.value(forKey: "blob") == .data([UInt8](repeating: 0xAB, count: blob)))
    }

    @Test func uidsAreKeptAsFound() throws {
        let file = try PlistlibProcess.run(
            "open(sys.argv[2], 'wb').write(plistlib.dumps({'$objects': ['$null', {'ref': plistlib.UID(1)}], 'big': plistlib.UID(70000)}, fmt=plistlib.FMT_BINARY))"
        )
        let read = try PropertyListCodec.read(file)
        #expect(try PropertyListCodec.write(read.value, as: .binary) == file)
        let document = try PropertyListDocument(file)
        #expect(document.value(forKey: "big") == .uid(70000))
        #expect(read.value.preferenceValue.isExact == false)
    }
}

/// Property lists from elsewhere (real apps' files, which the repository does not carry): with
/// `JARVIS_REAL_PLISTS` naming a folder, every `*.plist` in it must read to what `plistlib`
/// reads, and write back in its own format byte for byte when Apple's or plistlib's writer
/// made it (files with other layouts are reported, not failed).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["JARVIS_REAL_PLISTS"] != nil && PlistlibProcess.runs,
        "set JARVIS_REAL_PLISTS to a folder of real .plist files (and have python3) to compare them with plistlib"))
struct RealPropertyListTests {
    @Test func realFilesReadAsPlistlibReadsThem() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["JARVIS_REAL_PLISTS"] ?? "")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let read = try PropertyListCodec.read(bytes)
            // plistlib reads the file and the codec's binary writing of it; both must agree.
            let ours = try PropertyListCodec.write(read.value, as: .binary)
            let same = try PlistlibProcess.run(
                "import sys\na = plistlib.loads(open(sys.argv[1], 'rb').read())\nopen(sys.argv[2], 'w').write('same' if a == plistlib.loads(\(Self.literal(bytes))) else 'different')",
                input: ours)
            #expect(same == Array("same".utf8), "\(name)")
            let written = try PropertyListCodec.write(read.value, as: read.format)
            if written != bytes { print("\(name): not written back byte for byte (another writer's layout)") }
        }
    }

    /// Bytes as a Python bytes literal.
    private static func literal(_ bytes: [UInt8]) -> String {
        "bytes([" + bytes.map(String.init).joined(separator: ",") + "])"
    }
}
