import Testing

@testable import JarvisCore

@Suite struct JSONWriterTests {
    private let sample: JSONValue = [
        "name": "Jarvis",
        "version": 2,
        "ratio": 0.5,
        "flags": [true, false, nil],
        "empty": [:],
        "list": [],
        "nested": ["deep": ["x": "y"]],
    ]

    @Test func writesCompact() {
        let value: JSONValue = ["a": 1, "b": [true, nil]]
        #expect(JSONWriter.string(value) == #"{"a":1,"b":[true,null]}"#)
        #expect(JSONWriter.string([]) == "[]")
        #expect(JSONWriter.string([:]) == "{}")
        #expect(JSONWriter.string(-3) == "-3")
    }

    @Test func writesPretty() {
        let value: JSONValue = ["a": 1, "b": [true, nil], "c": [:], "d": []]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null
              ],
              "c": {},
              "d": []
            }
            """
        #expect(JSONWriter.string(value, pretty: true) == expected)
    }

    @Test func escapesStrings() {
        #expect(JSONWriter.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONWriter.string("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(JSONWriter.string("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(JSONWriter.string("é中😀/") == "\"é中😀/\"")
        #expect(JSONWriter.string("a\u{2028}b\u{2029}c") == #""a\u2028b\u2029c""#)
        #expect(JSONWriter.string(["k\n": "v"]) == #"{"k\n":"v"}"#)
    }

    @Test func compactOutputHasNoNewlineBytes() {
        let value: JSONValue = ["line\nkey": ["multi\nline\r\nstring", "\u{2028}"], "n": sample]
        let bytes = JSONWriter.bytes(value)
        #expect(!bytes.contains(UInt8(ascii: "\n")))
        #expect(!bytes.contains(UInt8(ascii: "\r")))
    }

    @Test func outputReparsesToEqualValue() throws {
        let tricky: JSONValue = [
            "strings": ["", "\"quoted\"", "tab\there", "\u{0}\u{7F}", "😀 ünïcödé", "\u{2028}"],
            "numbers": [0, -1, 1.5, .number(JSONNumber(text: "123456789012345678901234567890")!), 1e300],
            "sample": sample,
        ]
        for pretty in [false, true] {
            let reparsed = try JSONParser.parse(JSONWriter.bytes(tricky, pretty: pretty))
            #expect(reparsed == tricky)
            #expect(reparsed.objectValue?.keys == tricky.objectValue?.keys)
        }
    }

    @Test func roundTripsTextExactly() throws {
        let texts = [
            #"{"b":1,"a":[1.0,2E5,-0.0,{"z":null,"y":false}],"s":"\\\"\n"}"#,
            "[]", "{}", #""é""#, "123456789012345678901234567890",
        ]
        for text in texts {
            #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
        }
    }

    @Test func appendsToExistingBuffer() {
        var buffer = Array("prefix:".utf8)
        JSONWriter.write([1, 2], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "prefix:[1,2]")
    }
}
