import Foundation
import Testing

@testable import jarvis

@Suite struct MCPInputTests {
    /// Feeds `bytes` through a pipe and collects every event until the end.
    private func events(_ bytes: [UInt8], limit: Int) throws -> [String] {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            writer.write(Data(bytes))
            try? writer.close()
        }
        thread.start()
        var input = MCPInput(descriptor: pipe.fileHandleForReading.fileDescriptor, limit: limit)
        var seen: [String] = []
        while true {
            switch input.next() {
            case .line(let line): seen.append("line " + String(decoding: line, as: UTF8.self))
            case .tooLong(let prefix, let length): seen.append("long \(length) \(prefix.count)")
            case .end: return seen
            }
        }
    }

    @Test func splitsLinesDropsCarriageReturnsAndKeepsALastLineWithoutNewline() throws {
        #expect(try events(Array("a\r\nbc\n\nd".utf8), limit: 10) == ["line a", "line bc", "line ", "line d"])
    }

    @Test func aLineOverTheLimitIsReportedWithItsLengthAndTheNextLineStillComes() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
        let seen = try events(long + Array("\nok\n".utf8) + long, limit: 1_000)
        #expect(seen == ["long 200000 \(MCPInput.prefixLength)", "line ok", "long 200000 \(MCPInput.prefixLength)"])
    }

    @Test func aLineJustAtTheLimitIsKept() throws {
        let exact = [UInt8](repeating: UInt8(ascii: "y"), count: 1_000)
        #expect(try events(exact + [0x0A], limit: 1_000) == ["line " + String(repeating: "y", count: 1_000)])
    }
}
