import Testing

@testable import JarvisCore

/// The position-keeping JSONC reader: every range points at the exact bytes of its value.
struct JSONSyntaxTreeTests {
    func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    @Test func rangesCoverExactlyTheValuesKeysAndCommas() throws {
        let source = Array("{ \"a\" : [1, 2.50 ,\"x\\u00e9\"], // note\n \"b\": {\"c\": null}, }".utf8)
        let tree = try JSONSyntaxTree(source)
        let items = tree.root.items
        #expect(tree.root.range == 0..<source.count)
        #expect(items.map(\.key) == ["a", "b"])
        #expect(text(source, items[0].start..<(items[0].start + 3)) == "\"a\"")
        #expect(text(source, items[0].value.range) == "[1, 2.50 ,\"x\\u00e9\"]")
        #expect(items[0].value.items.map { text(source, $0.value.range) } == ["1", "2.50", "\"x\\u00e9\""])
        #expect(items[0].value.items.map { $0.comma.map { text(source, $0..<($0 + 1)) } } == [",", ",", nil])
        #expect(text(source, items[1].value.range) == "{\"c\": null}")
        // A trailing comma is recorded on the last member.
        #expect(items[1].comma.map { source[$0] } == UInt8(ascii: ","))
        #expect(tree.root.value == ["a": [1, .number(JSONNumber(text: "2.50")!), "xé"], "b": ["c": nil]])
    }

    @Test func commentsAndByteOrderMarkAreTrivia() throws {
        let source: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("/* head */ {\r\n  // a\r\n  \"k\": 1 /* tail */\r\n}\r\n".utf8)
        let tree = try JSONSyntaxTree(source)
        #expect(tree.hasByteOrderMark)
        #expect(text(source, tree.root.range).hasPrefix("{"))
        #expect(tree.root.value == ["k": 1])
    }

    @Test func problemsAreNamedWithLineAndColumn() {
        let cases: [(String, String)] = [
            ("{\"a\": 1 /* x", "line 1, column 9: unterminated comment"),
            ("{\n\"a\": 1\n\"b\": 2}", "line 3, column 1: a comma must separate members"),
            ("[1,,2]", "line 1, column 4: two commas in a row"),
            ("{\"a\": 1, \"a\": 2}", "line 1, column 10: a key written twice in one object"),
            ("{\"n\u{0303}\": 1, \"\u{00F1}\": 2}", "in two Unicode spellings of one name"),
            ("{\"a\" 1}", "line 1, column 6: expected ':' after a key, found '1'"),
            // A key is never named: a rule may hide it.
            ("{\"secret_token\" 1}", "expected ':' after a key, found '1'"),
            ("{\"secret_token\": 1 \"b\": 2}", "expected ',' or '}' after a member, found '\"'"),
            ("{\"a\": 1} x", "after the end of the top-level value"),
            ("// only a comment\n", "holds no JSON value"),
            ("{\"a\": / 1}", "a comment starts with // or /*"),
            ("[1, 2", "the array opened here is never closed"),
        ]
        for (source, message) in cases {
            #expect(throws: JSONParseError.self) { try JSONSyntaxTree(Array(source.utf8)) }
            do {
                _ = try JSONSyntaxTree(Array(source.utf8))
            } catch {
                #expect(error.description.contains(message), "\(source.debugDescription): \(error.description)")
            }
        }
    }

    /// A hide rule hides a key's name too: a file broken next to a key never names it.
    @Test func aProblemNeverNamesAKey() {
        for source in ["{\"secret_token\" 1}", "{\"secret_token\": 1 \"b\": 2}", "{\"a\": {\"secret_token\": true false}}"] {
            do {
                _ = try JSONSyntaxTree(Array(source.utf8))
                Issue.record("\(source) was read")
            } catch {
                #expect(!error.description.contains("secret_token"), "\(error.description)")
            }
        }
    }

    @Test func nestingIsBounded() {
        let deep = Array(String(repeating: "[", count: 600).utf8) + Array(String(repeating: "]", count: 600).utf8)
        #expect(throws: JSONParseError.self) { try JSONSyntaxTree(deep) }
        let fine = Array(String(repeating: "[", count: 100).utf8) + Array(String(repeating: "]", count: 100).utf8)
        #expect((try? JSONSyntaxTree(fine)) != nil)
    }
}
