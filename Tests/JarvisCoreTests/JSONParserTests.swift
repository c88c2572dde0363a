import Foundation
import Testing

@testable import JarvisCore

/// Parses `text` and returns the error, or nil when it parsed.
private func parseError(_ text: String) -> JSONParseError? {
    parseError(Array(text.utf8))
}

private func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    @Test func parsesScalars() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse(" false\n") == .bool(false))
        #expect(try JSONParser.parse("\"hi\"") == .string("hi"))
        #expect(try JSONParser.parse("-12.5e3").doubleValue == -12500)
        #expect(try JSONParser.parse("0") == 0)
    }

    @Test func parsesNestedDocument() throws {
        let value = try JSONParser.parse(#"{"a": [1, 2.0, {"b": null}], "c": "d", "e": {}}"#)
        let expected: JSONValue = ["a": [1, .number(JSONNumber(text: "2.0")!), ["b": nil]], "c": "d", "e": [:]]
        #expect(value == expected)
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["c"]?.stringValue == "d")
    }

    @Test func preservesKeyOrder() throws {
        let value = try JSONParser.parse(#"{"zeta":1,"alpha":2,"mid":3}"#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
        #expect(JSONWriter.string(value) == #"{"zeta":1,"alpha":2,"mid":3}"#)
    }

    @Test func preservesBigIntegersAndRealText() throws {
        let text = "[123456789012345678901234567890,1.0,1E+2,-0]"
        let value = try JSONParser.parse(text)
        let numbers = value.arrayValue ?? []
        #expect(numbers[0].int64Value == nil)
        guard case .number(let big) = numbers[0] else { Issue.record("not a number"); return }
        #expect(big.text == "123456789012345678901234567890")
        #expect(numbers[1] != 1)
        #expect(JSONWriter.string(value) == text)
    }

    @Test func acceptsAllInputTypes() throws {
        let text = #"{"k":[true]}"#
        let expected: JSONValue = ["k": [true]]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
        #expect(try JSONParser.parse(Data(text.utf8)) == expected)
        let line = Array("xx\(text)yy".utf8)
        #expect(try JSONParser.parse(line[2..<(line.count - 2)]) == expected)
        let fromRaw = try Array(text.utf8).withUnsafeBytes { buffer throws(JSONParseError) in
            try JSONParser.parse(buffer)
        }
        #expect(fromRaw == expected)
    }

    @Test func decodesEscapes() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try JSONParser.parse(#""\u00e9\u4E2D\u0000""#) == .string("é中\u{0}"))
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""x\uD83D\uDE00y😀""#) == .string("x😀y😀"))
        #expect(try JSONParser.parse("\"naïve — 中文 😀\"") == .string("naïve — 中文 😀"))
    }

    @Test(arguments: [
        "", "   ", "[1,]", #"{"a":1,}"#, "[1 2]", "// c\n1", "/* c */ 1", "'a'", #"{'a':1}"#,
        "01", "-01", "00", "NaN", "Infinity", "-Infinity", "+1", ".5", "1.", "1e", "1e+", "-",
        "[1] x", "1 2", "tru", "nul", "True", "[", "{", #"{"a"}"#, #"{"a":}"#, #"{1:2}"#,
        "\"abc", #""\x""#, #""\u12""#, #""\uZZZZ""#, "\"a\nb\"", "\"a\tb\"", "\"\u{1}\"",
        #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#, "[1,,2]", "[,1]", "{,}",
        #"{"a":1 "b":2}"#, "\u{FEFF}1",
    ])
    func rejectsInvalidText(_ text: String) {
        #expect(parseError(text) != nil, "accepted \(text.debugDescription)")
    }

    @Test(arguments: [
        [0xFF] as [UInt8], [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22],
        [0x22, 0xE2, 0x82, 0x22], [0x22, 0xF0, 0x9F, 0x98], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22], [0x22, 0xC3], [0x00], [0x31, 0x00],
        [0x22, 0x00, 0x22], [0x5B, 0x31, 0x5D, 0x00],
    ])
    func rejectsInvalidBytes(_ bytes: [UInt8]) {
        #expect(parseError(bytes) != nil, "accepted \(bytes)")
    }

    @Test func reportsLineAndColumn() {
        let error = parseError("{\n  \"a\": 1,\n  \"b\": 2 \"c\"\n}")
        #expect(error?.line == 3)
        #expect(error?.column == 10)
        #expect(error?.offset == 21)
        #expect(error?.message == "expected ',' or '}' after object member")
        #expect(error?.description == "line 3, column 10: expected ',' or '}' after object member")

        // Columns count characters, so a multi-byte character before the error counts once.
        let afterEmoji = parseError("[\"😀\" 1]")
        #expect(afterEmoji?.line == 1)
        #expect(afterEmoji?.column == 6)

        let trailing = parseError("[1,\n 2,\n]")
        #expect(trailing?.line == 3)
        #expect(trailing?.column == 1)
        #expect(trailing?.message.contains("trailing comma") == true)
    }

    @Test func rejectsDuplicateKeysNamingThem() {
        let error = parseError(#"{"name": 1, "other": 2, "name": 3}"#)
        #expect(error?.message.contains("\"name\"") == true)
        #expect(error?.message.contains("duplicate") == true)
        #expect(error?.column == 25)
        let large = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseError("{\(large),\"k42\":0}")?.message.contains("\"k42\"") == true)
    }

    @Test func explainsCommonMistakes() {
        #expect(parseError("01")?.message.contains("leading zeros") == true)
        #expect(parseError("NaN")?.message.contains("NaN") == true)
        #expect(parseError("'x'")?.message.contains("double quotes") == true)
        #expect(parseError("// x\n1")?.message.contains("comments") == true)
        #expect(parseError(#""\ud83d""#)?.message.contains("lone high surrogate") == true)
        #expect(parseError(#""\ude00""#)?.message.contains("lone low surrogate") == true)
        #expect(parseError([0x22, 0xFF, 0x22])?.message.contains("invalid UTF-8") == true)
        #expect(parseError("\"a\nb\"")?.message.contains("control character") == true)
        #expect(parseError("[1] 2")?.message.contains("after the JSON value") == true)
        #expect(parseError(#""\q""#)?.message.hasPrefix("invalid escape '\\q'") == true)
        #expect(parseError("\"\u{1}\"")?.message.contains("write it as \\u0001") == true)
        #expect(parseError("\"\t\"")?.message.contains("write it as \\t") == true)
        #expect(parseError("1.")?.message == "expected a digit after the decimal point")
        let hugeKey = String(repeating: "k", count: 100_000)
        let duplicate = parseError("{\"\(hugeKey)\":1,\"\(hugeKey)\":2}")
        #expect(duplicate.map { $0.message.count < 200 } == true)
    }

    @Test func rejectsDeepNestingWithoutCrashing() {
        let deepArrays = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(parseError(deepArrays)?.message.contains("nesting") == true)
        let deepObjects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(parseError(deepObjects)?.message.contains("nesting") == true)
        let unclosed = String(repeating: "[", count: 100_000)
        #expect(parseError(unclosed) != nil)
    }

    @Test func honoursMaxDepthExactly() throws {
        let depth3 = "[[[1]]]"
        #expect(throws: Never.self) { try JSONParser.parse(depth3, maxDepth: 3) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(depth3, maxDepth: 2) }
        #expect(throws: Never.self) { try JSONParser.parse("1", maxDepth: 0) }
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(atLimit) }
    }

    @Test func largeObjectsKeepOrderAndFindKeys() throws {
        let count = 10_000
        let text = "{" + (0..<count).map { "\"key\(count - $0)\":\($0)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.count == count)
        #expect(object.keys.first == "key\(count)")
        #expect(object["key1"]?.int64Value == Int64(count - 1))
    }
}
