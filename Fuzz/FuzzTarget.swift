// libFuzzer entry over the wire codec: the line framer, the JSON parser and writer, the
// JSON-RPC request and response decoders, and the answer writers. Built by Fuzz/run.sh straight from the package's
// source files (no SwiftPM), so it has no `main`: libFuzzer provides one.
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
