import JarvisCore
import JarvisTransport

/// The answer to `list`, encoded a chunk at a time while the client reads it.
///
/// The bytes are exactly those of the whole answer built at once
/// (`{"jsonrpc":"2.0","id":…,"result":{"items":[…],"problems":[…],"nextCursor"?,"hiddenSystemContainers"?}}`), but only
/// the items of the chunk being made exist at any moment, so 64 clients listing a large
/// suite cost 64 small buffers instead of 64 copies of the answer.
struct ListAnswer: LineProducer {
    private enum Stage {
        case start
        case items(first: Bool)
        case done
    }

    private var pager: ListPager
    private let id: JSONValue
    private var stage = Stage.start
    /// Told of each chunk's items once they are in the answer (to audit what is revealed).
    private let sending: (@Sendable ([PreferenceItem]) -> Void)?
    /// Told once the whole answer is made (to record an export).
    private let finished: (@Sendable () -> Void)?
    /// The storage the listing named, for a timeout's message (``RPCError/storage(named:)``).
    private let storage: String?

    init(
        id: JSONValue, pager: ListPager, storage: String? = nil, sending: (@Sendable ([PreferenceItem]) -> Void)? = nil,
        finished: (@Sendable () -> Void)? = nil
    ) {
        self.id = id
        self.pager = pager
        self.storage = storage
        self.sending = sending
        self.finished = finished
    }

    mutating func produce(into buffer: inout [UInt8], size: Int) -> Bool {
        let target = buffer.count + size
        if case .start = stage {
            open(&buffer)
            stage = .items(first: true)
        }
        guard case .items(var first) = stage else { return true }
        var chunk: [PreferenceItem] = []
        defer { if let sending, !chunk.isEmpty { sending(chunk) } }
        // A step asks at most one scanner it has not asked before, and ends before asking it
        // once it made any item: what came before is sent while the next scanner is asked, and
        // a scanner that never answers is its own step, passed over on its timeout.
        var madeOrAsked = false
        while buffer.count < target {
            if pager.scannerAhead != nil {
                if madeOrAsked {
                    stage = .items(first: first)
                    return false
                }
                madeOrAsked = true
            }
            guard let item = pager.next() else {
                let end = pager.finish()
                Self.append(#"],"problems":"#, to: &buffer)
                JSONWriter.write(.array(end.problems.map(\.json)), into: &buffer)
                if let next = end.nextCursor {
                    Self.append(#","nextCursor":"#, to: &buffer)
                    JSONWriter.write(.string(next.text), into: &buffer)
                }
                if end.hiddenSystemContainers > 0 {
                    Self.append(#","hiddenSystemContainers":"#, to: &buffer)
                    JSONWriter.write(.integer(end.hiddenSystemContainers), into: &buffer)
                }
                Self.append("}}", to: &buffer)
                stage = .done
                if let finished {
                    // The last chunk's secrets are counted before the export is recorded.
                    if let sending, !chunk.isEmpty { sending(chunk) }
                    chunk = []
                    finished()
                }
                return true
            }
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            madeOrAsked = true
            JSONWriter.write(WireItem.encode(item), into: &buffer)
            if sending != nil, item.value != nil { chunk.append(item) }
        }
        stage = .items(first: first)
        return false
    }

    var nextGroup: String? { pager.scannerNext }

    func skipping(afterStepTimedOut timeout: Duration) -> (bytes: [UInt8], next: (any LineProducer)?)? {
        // Only a step that began by asking a scanner it had not asked yet is passed over;
        // one stuck inside a scanner's containers ends the answer (``rest(afterStepTimedOut:)``).
        var next = self
        guard next.pager.skipScannerAhead(after: timeout) else { return nil }
        var bytes: [UInt8] = []
        if case .start = stage {
            open(&bytes)
            next.stage = .items(first: true)
        }
        return (bytes, next)
    }

    func rest(afterStepTimedOut timeout: Duration) -> [UInt8] {
        guard case .items = stage else {
            // Nothing sent yet: the whole answer is the timeout error.
            return RPCResponse.failure(id: id, error: .timedOut(after: timeout, storage: storage))
        }
        let end = pager.stopped(after: timeout)
        var buffer: [UInt8] = []
        Self.append(#"],"problems":"#, to: &buffer)
        JSONWriter.write(.array(end.problems.map(\.json)), into: &buffer)
        if end.hiddenSystemContainers > 0 {
            Self.append(#","hiddenSystemContainers":"#, to: &buffer)
            JSONWriter.write(.integer(end.hiddenSystemContainers), into: &buffer)
        }
        Self.append("}}", to: &buffer)
        return buffer
    }

    /// The answer's opening bytes, up to its first item.
    private func open(_ buffer: inout [UInt8]) {
        Self.append(#"{"jsonrpc":"2.0","id":"#, to: &buffer)
        JSONWriter.write(id, into: &buffer)
        Self.append(#","result":{"items":["#, to: &buffer)
    }

    private static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }
}
