import JarvisTestSupport
import Testing

@testable import JarvisTransport

@Suite struct LineFramerTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func drain(_ framer: inout LineFramer) throws -> [String] {
        var lines: [String] = []
        while let line = try framer.nextLine() {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }

    @Test func returnsNilUntilANewlineArrives() throws {
        var framer = LineFramer(maxLineLength: 100)
        framer.append(bytes("hel"))
        #expect(try framer.nextLine() == nil)
        framer.append(bytes("lo\nwor"))
        #expect(try drain(&framer) == ["hello"])
        #expect(framer.pendingByteCount == 3)
        framer.append(bytes("ld\n"))
        #expect(try drain(&framer) == ["world"])
        #expect(framer.pendingByteCount == 0)
    }

    @Test func splitsSeveralLinesInOneChunk() throws {
        var framer = LineFramer(maxLineLength: 100)
        framer.append(bytes("a\nbb\nccc\n"))
        #expect(try drain(&framer) == ["a", "bb", "ccc"])
    }

    @Test func stripsCarriageReturnBeforeNewlineOnly() throws {
        var framer = LineFramer(maxLineLength: 100)
        framer.append(bytes("one\r\ntw\ro\r"))
        #expect(try drain(&framer) == ["one"])
        framer.append(bytes("\n"))
        #expect(try drain(&framer) == ["tw\ro"])
    }

    @Test func keepsEmptyLines() throws {
        var framer = LineFramer(maxLineLength: 100)
        framer.append(bytes("\n\r\nx\n"))
        #expect(try drain(&framer) == ["", "", "x"])
    }

    @Test func acceptsALineExactlyAtTheLimit() throws {
        var framer = LineFramer(maxLineLength: 4)
        framer.append(bytes("abcd\r"))
        #expect(try framer.nextLine() == nil)
        framer.append(bytes("\nabcd\n"))
        #expect(try drain(&framer) == ["abcd", "abcd"])
    }

    @Test func throwsForACompletedLineOverTheLimitThenContinues() throws {
        var framer = LineFramer(maxLineLength: 4)
        framer.append(bytes("abcdef\nok\n"))
        #expect(throws: LineFramer.Overflow.self) { try framer.nextLine() }
        #expect(try drain(&framer) == ["ok"])
    }

    @Test func throwsForAPartialLineOverTheLimitWithoutWaitingForTheNewline() throws {
        var framer = LineFramer(maxLineLength: 4)
        framer.append(bytes("abcde"))
        #expect(throws: LineFramer.Overflow(maxLineLength: 4, prefix: bytes("abcde"))) { try framer.nextLine() }
        #expect(framer.pendingByteCount == 0)
        // The rest of the overlong line is discarded up to its newline; the next line frames.
        framer.append(bytes("fghij"))
        #expect(try framer.nextLine() == nil)
        framer.append(bytes("k\nnext\n"))
        #expect(try drain(&framer) == ["next"])
    }

    @Test func handlesInvalidUTF8AndNulBytes() throws {
        var framer = LineFramer(maxLineLength: 10)
        framer.append([0xFF, 0x00, 0xC3, 0x0A])
        #expect(try framer.nextLine() == [0xFF, 0x00, 0xC3])
    }

    @Test func appendsFromARawBuffer() throws {
        var framer = LineFramer(maxLineLength: 10)
        bytes("raw\n").withUnsafeBytes { framer.append($0) }
        #expect(try drain(&framer) == ["raw"])
    }

    @Test func oneMebibyteLineDeliveredByteByByteStaysLinear() throws {
        let size = 1 << 20
        var framer = LineFramer(maxLineLength: size)
        let clock = ContinuousClock()
        var line: [UInt8]?
        let elapsed = try clock.measure {
            let byte: [UInt8] = [0x61]
            for _ in 0..<size {
                byte.withUnsafeBytes { framer.append($0) }
                #expect(try framer.nextLine() == nil)
            }
            framer.append([0x0A])
            line = try framer.nextLine()
        }
        #expect(line?.count == size)
        // Rescanning from the start on every byte would take minutes, not seconds.
        #expect(elapsed < .seconds(10))
    }

    @Test func manyShortLinesCompactTheBuffer() throws {
        var framer = LineFramer(maxLineLength: 64)
        var count = 0
        for index in 0..<50_000 {
            framer.append(bytes("line \(index)\nhalf"))
            while try framer.nextLine() != nil { count += 1 }
            framer.append(bytes("\n"))
            while try framer.nextLine() != nil { count += 1 }
        }
        #expect(count == 100_000)
        #expect(framer.pendingByteCount == 0)
    }

    @Test func finishReturnsALastLineWithoutNewlineOnce() throws {
        var framer = LineFramer(maxLineLength: 8)
        framer.append(bytes("a\nlast\r"))
        #expect(try drain(&framer) == ["a"])
        #expect(try framer.finish() == bytes("last"))
        #expect(try framer.finish() == nil)
        #expect(framer.pendingByteCount == 0)
        var empty = LineFramer(maxLineLength: 8)
        empty.append(bytes("whole\n"))
        #expect(try drain(&empty) == ["whole"])
        #expect(try empty.finish() == nil)
    }

    @Test func finishRefusesALastLineOverTheLimitAndNeverReturnsARestOfOne() throws {
        var framer = LineFramer(maxLineLength: 4)
        framer.append(bytes("abcd"))
        #expect(try framer.nextLine() == nil)
        framer.append(bytes("e"))
        // Detected before the end: the rest of the dropped line is not a line of its own.
        #expect(throws: LineFramer.Overflow(maxLineLength: 4, prefix: bytes("abcde"))) { try framer.nextLine() }
        framer.append(bytes("fgh"))
        #expect(try framer.nextLine() == nil)
        #expect(try framer.finish() == nil)
    }

    @Test func anOverflowKeepsOnlyTheFirstBytesOfTheDroppedLine() throws {
        let size = LineFramer.overflowPrefixLength * 3
        var framer = LineFramer(maxLineLength: 100)
        framer.append(bytes(#"{"id":7,"# + String(repeating: "x", count: size)))
        do {
            _ = try framer.nextLine()
            Issue.record("a line over the limit was not refused")
        } catch {
            #expect(error.prefix.count == LineFramer.overflowPrefixLength)
            #expect(error.prefix.starts(with: bytes(#"{"id":7,"#)))
        }
        #expect(framer.pendingByteCount == 0)
    }
}
