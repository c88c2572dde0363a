import Foundation
import JarvisCore
import JarvisScanners
import Testing

@testable import JarvisRemote

/// The shortcut for flat requests against the full decoder: whatever the shortcut reads, the
/// full decoder reads as the same request, and a `get` the shortcut answers is answered with
/// the very bytes the full path writes; everything else falls through to the full decoder.
@Suite struct FlatRequestTests {
    static let gets = [
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"scanner":"defaults","container":"com.example.app","key":"theme"}}"#,
        #"{"jsonrpc":"2.0","id":"abc","method":"get","params":{"container":"app","key":"name","reveal":true}}"#,
        #" { "method" : "get" , "params" : { "key" : "k" , "container" : "c" , "reveal" : false } , "id" : -42 , "jsonrpc" : "2.0" } "#,
        "{\"jsonrpc\":\"2.0\",\t\"id\":0,\r\n\"method\":\"get\",\"params\":{\"container\":\"c\",\"key\":\"k\",\"pointer\":\"/a/0\"}}",
        #"{"jsonrpc":"2.0","id":123456789012345,"method":"get","params":{"container":"c","key":"","pointer":""}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"ping","params":{}}"#,
        #"{"jsonrpc":"2.0","id":8,"method":"list","params":{"scanner":"memory","undeclared":true}}"#,
    ]

    /// Lines the shortcut must leave to the full decoder (which reads some and refuses others).
    static let others = [
        #"{"jsonrpc":"2.0","method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1.0,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1e2,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":01,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1234567890123456789,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k","key":"j"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c\u0041","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c\"","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"café","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":null,"key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":{"a":1}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k"},"extra":1}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"id":1,"method":"get","params":{"container":"c","key":"k"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k"}} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k"},}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k",}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":[]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k","reveal":tru}}"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"get"}]"#,
        "",
        "{",
    ]

    /// What the shortcut reads from `line`, as the full decoder's request, with the params in
    /// the order sent (a repeated one given up, as the full decoder refuses it).
    private func flat(_ line: [UInt8]) -> RPCRequest? {
        var params = JSONObject()
        let head = FlatRequest.read(line) { name, value in
            let name = name.text
            guard params[name] == nil else { return false }
            switch value {
            case .string(let text): params[name] = .string(text)
            case .bool(let flag): params[name] = .bool(flag)
            }
            return true
        }
        return head.map { RPCRequest(id: $0.id, method: $0.method, params: params) }
    }

    /// What the full decoder reads from `line`, or nil when it refuses it.
    private func full(_ line: [UInt8]) -> RPCRequest? {
        try? RPCRequest.decode(line)
    }

    /// The shortcut's promise for one line: it reads nothing the full decoder reads otherwise,
    /// and `get` params it reads are the full reader's.
    private func check(_ line: [UInt8], _ comment: Comment? = nil) {
        guard let flat = flat(line) else { return }
        let request = full(line)
        #expect(request == flat, comment)
        guard let request, request.method == "get", let get = Wire.GetParams.flat(line) else { return }
        #expect(get.id == flat.id, comment)
        #expect((try? Wire.GetParams(params: request.params)) == get.params, comment)
    }

    @Test func flatLinesReadAsTheFullDecoderReadsThem() throws {
        for line in Self.gets {
            let bytes = Array(line.utf8)
            let read = try #require(flat(bytes), "\(line)")
            #expect(full(bytes) == read, "\(line)")
            check(bytes)
        }
        let get = try #require(flat(Array(Self.gets[1].utf8)))
        #expect(get.id == .string("abc") && get.params["reveal"] == .bool(true))
        let pointer = try #require(Wire.GetParams.flat(Array(Self.gets[3].utf8)))
        #expect(pointer.params.place.pointer?.description == "/a/0")
    }

    @Test func everythingElseIsLeftToTheFullDecoder() {
        for line in Self.others {
            #expect(flat(Array(line.utf8)) == nil, "\(line)")
            #expect(Wire.GetParams.flat(Array(line.utf8)) == nil, "\(line)")
        }
    }

    @Test func getParamsTheFullReaderRefusesAreLeftToIt() throws {
        let refused = [
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"key":"k"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k","limit":"3"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k","reveal":"yes"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":"c","key":"k","pointer":"a"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"container":true,"key":"k"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8","i":"9"}}"#,
        ]
        for line in refused {
            #expect(flat(Array(line.utf8)) != nil, "\(line)")
            #expect(Wire.GetParams.flat(Array(line.utf8)) == nil, "\(line)")
            let request = try #require(full(Array(line.utf8)))
            #expect(throws: RPCError.self) { try Wire.GetParams(params: request.params) }
        }
    }

    /// 50,000 seeded mutations of the lines above (a byte changed, dropped, doubled or a
    /// character from JSON's alphabet put in): the shortcut never reads one differently.
    @Test func mutatedLinesNeverReadDifferently() {
        var random = SeededGenerator(seed: 0x5EED_F1A7)
        let alphabet = Array(#"{}[]":,\ 0123456789-.eE truefalsnul"#.utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xE2]
        let lines = (Self.gets + Self.others).map { Array($0.utf8) }.filter { !$0.isEmpty }
        var readFast = 0
        for round in 0..<50_000 {
            var line = lines[Int(random.next() % UInt64(lines.count))]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(line.count))
                switch random.next() % 4 {
                case 0: line[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: if line.count > 1 { line.remove(at: at) }
                case 2: line.insert(line[at], at: at)
                default: line.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                }
            }
            if flat(line) != nil { readFast += 1 }
            check(line, "round \(round): \(String(decoding: line, as: UTF8.self))")
        }
        // The mutations leave many lines flat: the check above had something to compare.
        #expect(readFast > 1_000)
    }

    // MARK: - Answers

    /// Through the agent's service: a flat `get` (found, missing, masked, revealed) gets the
    /// bytes the full path gives the same request.
    @Test func aFlatGetIsAnsweredWithTheFullPathsBytes() throws {
        let hub = JarvisHub(configuration: .debug)
        hub.register(MemoryScanner(id: "memory", contents: ["app": ["name": .string("Ada \"L\""), "n": .integer(3)]]))
        hub.register(MemoryScanner(id: "vault", isSecret: true, contents: ["keys": ["api": .string("sk-123456")]]))
        let service = AgentService(hub: hub, identity: AgentIdentity(name: "t"), maxLineLength: 1 << 20)
        let session = AgentSessionState(transport: .unix, peer: "test")
        _ = service.respond(
            to: Array(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"t"}}"#.utf8), session: session)
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"scanner":"memory","container":"app","key":"name"}}"#,
            #"{"jsonrpc":"2.0","id":"x","method":"get","params":{"container":"app","key":"n"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"get","params":{"container":"app","key":"missing"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"get","params":{"container":"nowhere","key":"k"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"get","params":{"container":"keys","key":"api"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"get","params":{"container":"keys","key":"api","reveal":true}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"get","params":{"container":"app","key":"name","pointer":"/0"}}"#,
        ]
        for line in lines {
            let bytes = Array(line.utf8)
            #expect(Wire.GetParams.flat(bytes) != nil, "\(line)")
            let fast = try #require(service.respond(to: bytes, session: session))
            let request = try RPCRequest.decode(bytes)
            let expected: [UInt8]
            do {
                expected = RPCResponse.success(id: request.id ?? .null, result: try service.handle(request, session: session))
            } catch {
                expected = RPCResponse.failure(id: request.id ?? .null, error: error)
            }
            #expect(String(decoding: fast, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(line)")
        }
    }
}

/// A deterministic generator (SplitMix64), so a failing mutation is found again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

extension FlatRequest.Name {
    /// The name as sent, to compare with the full decoder's params.
    fileprivate var text: String {
        switch self {
        case .scanner: "scanner"
        case .container: "container"
        case .key: "key"
        case .pointer: "pointer"
        case .reveal: "reveal"
        case .other(let text): text
        }
    }
}
