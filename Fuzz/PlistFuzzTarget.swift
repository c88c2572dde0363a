// libFuzzer entry over the property-list codec (binary and XML): reading must never trap,
// hang or balloon, and whatever reads must write back to bytes that read back and write to
// the same bytes again. Built by Fuzz/run.sh straight from the package's source files (no
// SwiftPM), so it has no `main`: libFuzzer provides one.
import JarvisCore

/// Limits small enough that the fuzzer reaches them: 64 levels, 8 MB.
private let limits = PropertyListLimits(maxDepth: 64, maxBytes: 8 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let (value, format) = try? PropertyListCodec.read(bytes, limits: limits) else { return 0 }
    // Binary holds every value read; XML may refuse text it cannot hold (a decoded &#1;).
    for target in [format, .binary] {
        guard let written = try? PropertyListCodec.write(value, as: target) else {
            precondition(target == .xml, "the binary writer refused a value the reader read")
            continue
        }
        guard
            let again = try? PropertyListCodec.read(
                written, limits: PropertyListLimits(maxDepth: 64, maxBytes: 64 << 20))
        else { preconditionFailure("what the codec wrote (\(target)) does not read back") }
        let rewritten = try? PropertyListCodec.write(again.value, as: target)
        precondition(rewritten == written, "writing what was read back gave other bytes (\(target))")
    }
    // A suite-like top level: one key changed, and what it wrote reads back.
    if let document = try? PropertyListDocument(bytes, limits: limits), let first = document.members.first {
        if let changed = try? document.setting(first.key, to: .integer(7)) {
            precondition(
                (try? PropertyListDocument(changed.bytes))?.value(forKey: first.key) == .integer(7),
                "an edit did not read back")
        }
        if let removed = try? document.setting(first.key, to: nil) {
            precondition(
                (try? PropertyListDocument(removed.bytes))?.value(forKey: first.key) == nil,
                "a removal did not read back")
        }
    }
    return 0
}
