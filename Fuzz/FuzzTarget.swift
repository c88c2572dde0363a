// libFuzzer entry over the wire codec: the line framer, the JSON parser and writer, the
// JSON-RPC request and response decoders, and the answer writers. Built by Fuzz/run.sh straight from the package's
// source files (no SwiftPM), so it has no `main`: libFuzzer provides one.
import Foundation
import JarvisCore
import JarvisTransport

/// Framing must never trap or hand out a line over the limit; every framed line must decode
/// to a request, an answer or an `RPCFailure` under the agent's rules and MCP's; whatever parses must write back to JSON that parses to the
/// same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Small limit so that overflows are exercised too; feed in two uneven chunks.
    var framer = LineFramer(maxLineLength: 512)
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    framer.append(Array(bytes[..<cut]))
    framer.append(Array(bytes[cut...]))
    var lines: [[UInt8]] = []
    while true {
        do {
            guard let line = try framer.nextLine() else { break }
            precondition(line.count <= 512, "the framer returned a line over its limit")
            lines.append(line)
        } catch {
            precondition(error.prefix.count <= LineFramer.overflowPrefixLength, "an overflow kept too much")
            _ = RPCRequest.id(inPrefix: error.prefix)
            continue
        }
    }
    if let last = try? framer.finish() { precondition(last.count <= 512, "finish returned a line over the limit") }
    lines.append(bytes)
    for line in lines {
        // The answer writers (a get's answer is the envelope around the item's strings, written
        // with the escapes): any text, valid UTF-8 or not, is written as an answer that parses
        // back to the same id and text.
        let text = String(decoding: line, as: UTF8.self)
        let answer = RPCResponse.success(id: .string(text)) { JSONWriter.writeString(text, into: &$0) }
        let parsed = try? JSONParser.parse(answer)
        precondition(parsed?["id"] == .string(text), "an answer's id did not parse back")
        precondition(parsed?["result"] == .string(text), "an answer's text did not parse back")
        fuzzItemWriters(line)
        _ = try? RPCRequest.decode(line)
        // The rules `jarvis mcp` reads with: the same decoder, narrower ids, unknown members ignored.
        _ = try? RPCMessage.decode(
            line,
            rules: RPCMessage.Rules(
                maxDepth: RPCRequest.maxDepth, nullAndFractionalIDs: false, refusesUnknownMembers: false,
                recoversIDs: true))
        _ = try? RPCResponse.decode(line)
        if let value = try? JSONParser.parse(line) {
            let written = JSONWriter.bytes(value)
            let reparsed = try? JSONParser.parse(written)
            precondition(reparsed == value, "JSON written back does not parse to the same value")
        }
    }
    return 0
}

/// The item writers: an item made of the input (its names, a value of a kind the first byte
/// picks, a mask, a pointer, notes, a catalog note) is written as bytes exactly as its tree is,
/// and the bytes parse back to the tree.
func fuzzItemWriters(_ line: [UInt8]) {
    let parts = line.split(separator: 0x7C, maxSplits: 4, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
    let selector = line.first ?? 0
    let number = line.reduce(Int64(0)) { ($0 &* 31) &+ Int64($1) }
    let values: [PreferenceValue] = [
        .string(part(3)), .integer(number), .real(Double(bitPattern: UInt64(bitPattern: number))), .boolean(number & 1 == 0),
        .date(Date(timeIntervalSinceReferenceDate: Double(number % 4_000_000_000) / 7)), .data(Data(line)),
        .array([.string(part(3)), .integer(number)]), .dictionary([part(3): .string(part(4)), "$" + part(4): .integer(1)]),
    ]
    let value = values[Int(selector) % values.count]
    var item = PreferenceItem(
        address: PreferenceAddress(scanner: part(0), container: part(1), key: part(2)), type: value.type,
        value: selector & 8 == 0 ? value : nil, revision: Revision(part(4)),
        layer: selector & 16 == 0 ? .stored : .registered, encoding: selector & 32 == 0 ? nil : .json,
        isWritable: selector & 64 == 0,
        mask: selector & 8 == 0 ? nil : PreferenceItem.Mask(length: Int(number & 0xFFFF), fingerprint: part(4)))
    if selector & 128 != 0 {
        item.pointer = try? JSONPointer(parsing: "/" + part(4))
        item.notes = [part(3)]
        item.catalog = CatalogNote(
            defaultValue: value, description: part(4), allowedValues: [value],
            range: Double(number % 1000)...Double(number % 1000) + 1, isUnset: selector & 2 == 0)
    }
    var written: [UInt8] = []
    WireItem.write(item, into: &written)
    let tree = WireItem.encode(item)
    precondition(written == JSONWriter.bytes(tree), "the item's bytes differ from its tree's")
    precondition((try? JSONParser.parse(written)) == tree, "the item's bytes do not parse back to its tree")
}
