import JarvisCore
import JarvisRemote
import Testing

@testable import jarvis

@Suite struct MCPArgumentsTests {
    @Test func aPlaceReadsTheKeyAndAnEmptyPointerIsTheWholeValue() throws {
        let whole = try MCPArguments(["container": "app", "key": "k", "pointer": ""]).place()
        #expect(whole == Wire.Place(container: "app", key: "k"))
        let inner = try MCPArguments(["scanner": "json", "container": "c.json", "key": "server", "pointer": "/port"])
            .place()
        #expect(inner.scanner == "json")
        #expect(inner.pointer?.description == "/port")
        let withoutPointer = try MCPArguments(["container": "app", "key": "k", "pointer": "/a"]).place(pointer: false)
        #expect(withoutPointer.pointer == nil)
    }

    @Test func aMalformedPointerOrTypeIsRefusedAsInvalidParams() throws {
        #expect(throws: JarvisError.self) { try MCPArguments(["container": "a", "key": "k", "pointer": "x"]).place() }
        do {
            _ = try MCPArguments(["type": "complex"]).type()
            Issue.record("an unknown type was accepted")
        } catch {
            #expect(error.code == .invalidParams)
            #expect(error.message.contains("string"))
        }
        #expect(try MCPArguments(["type": "integer"]).type() == .integer)
        #expect(MCPArguments(["expectedRevision": "r1"]).revision() == Revision("r1"))
        #expect(MCPArguments([:]).revision() == nil)
    }
}
