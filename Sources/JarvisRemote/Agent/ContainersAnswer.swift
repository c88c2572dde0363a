import JarvisCore
import JarvisTransport

/// The answer to `containers` of every scanner, one scanner per step, each in its scanner's
/// group of threads.
///
/// The bytes are those of ``Wire/ContainersResult`` built at once
/// (`{"jsonrpc":"2.0","id":…,"result":{"containers":[…]}}`). A scanner whose containers do not
/// come within the step timeout (a keyring that never answers) stands in the answer as one
/// entry with an empty name and a `problem`, as in a listing's `problems`, and the scanners
/// after it are still asked: one hung storage costs its own entry, not the whole answer.
struct ContainersAnswer: LineProducer {
    private let hub: JarvisHub
    private let id: JSONValue
    /// The scanners not asked yet, in the hub's order.
    private var scanners: ArraySlice<String>
    private var started = false
    private var first = true

    init(id: JSONValue, hub: JarvisHub) {
        self.id = id
        self.hub = hub
        scanners = hub.scannerIDs()[...]
    }

    var nextGroup: String? { scanners.first }

    mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool {
        start(&buffer)
        guard let scanner = scanners.popFirst() else {
            buffer.append(contentsOf: Array("]}}".utf8))
            return true
        }
        // A scanner disabled since the answer began has nothing to show.
        let containers = (try? hub.containers(scanner: scanner)) ?? []
        for container in containers { append(Wire.Container(container).json, to: &buffer) }
        if scanners.isEmpty {
            buffer.append(contentsOf: Array("]}}".utf8))
            return true
        }
        return false
    }

    func skipping(afterStepTimedOut timeout: Duration) -> (bytes: [UInt8], next: (any LineProducer)?)? {
        var next = self
        var bytes: [UInt8] = []
        next.start(&bytes)
        guard let scanner = next.scanners.popFirst() else { return nil }
        next.append(Self.notAnswering(scanner, after: timeout).json, to: &bytes)
        if next.scanners.isEmpty {
            // Nothing is left to ask: the closing bytes go with this entry.
            bytes.append(contentsOf: Array("]}}".utf8))
            return (bytes, nil)
        }
        return (bytes, next)
    }

    func rest(afterStepTimedOut timeout: Duration) -> [UInt8] {
        // Only reached when ``skipping(afterStepTimedOut:)`` had no scanner left, which never
        // happens while a step runs; a valid line all the same.
        var copy = self
        var bytes: [UInt8] = []
        copy.start(&bytes)
        bytes.append(contentsOf: Array("]}}".utf8))
        return bytes
    }

    /// The entry of a scanner that did not answer within `timeout`.
    static func notAnswering(_ scanner: String, after timeout: Duration) -> Wire.Container {
        Wire.Container(
            scanner: scanner, name: "", writable: false,
            problem:
                "\(timeout.silence); ask for its containers on their own later"
        )
    }

    /// The opening bytes, once.
    private mutating func start(_ buffer: inout [UInt8]) {
        guard !started else { return }
        started = true
        buffer.append(contentsOf: Array(#"{"jsonrpc":"2.0","id":"#.utf8))
        JSONWriter.write(id, into: &buffer)
        buffer.append(contentsOf: Array(#","result":{"containers":["#.utf8))
    }

    private mutating func append(_ entry: JSONValue, to buffer: inout [UInt8]) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        JSONWriter.write(entry, into: &buffer)
    }
}
