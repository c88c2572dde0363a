import Foundation
import JarvisTestSupport
import JarvisRemote
import JarvisTransport
import Testing

@testable import jarvis

@Suite struct MCPInputTests {
    /// Feeds `bytes` through a pipe and collects every event until the end.
    private func events(_ bytes: [UInt8], limit: Int) throws -> [String] {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            writer.writeQuietly(bytes)
            try? writer.close()
        }
        thread.start()
        var input = MCPInput(descriptor: pipe.fileHandleForReading.fileDescriptor, limit: limit)
        var seen: [String] = []
        while true {
            switch input.next() {
            case .line(let line): seen.append("line " + String(decoding: line, as: UTF8.self))
            case .tooLong(let overflow):
                // The dropped line's first bytes, however the reads cut it: more than the limit,
                // never more than the framer keeps.
                let kept = overflow.prefix.count > limit && overflow.prefix.count <= LineFramer.overflowPrefixLength
                seen.append(
                    "long \(overflow.maxLineLength) \(kept && overflow.prefix.allSatisfy { $0 == UInt8(ascii: "x") })")
            case .end: return seen
            }
        }
    }

    @Test func splitsLinesDropsCarriageReturnsAndKeepsALastLineWithoutNewline() throws {
        #expect(try events(Array("a\r\nbc\n\nd".utf8), limit: 10) == ["line a", "line bc", "line ", "line d"])
    }

    @Test func aLineOverTheLimitIsReportedWithItsFirstBytesAndTheNextLineStillComes() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
        let seen = try events(long + Array("\nok\n".utf8) + long, limit: 1_000)
        #expect(seen == ["long 1000 true", "line ok", "long 1000 true"])
    }

    @Test func aLineJustAtTheLimitIsKept() throws {
        let exact = [UInt8](repeating: UInt8(ascii: "y"), count: 1_000)
        #expect(try events(exact + [0x0A], limit: 1_000) == ["line " + String(repeating: "y", count: 1_000)])
    }
}
