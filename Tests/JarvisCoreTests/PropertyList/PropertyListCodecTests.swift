import Foundation
import Testing

@testable import JarvisCore

@Suite struct PropertyListCodecTests {
    /// Every type, with the edges of each: 64-bit and large unsigned integers, negative zero,
    /// infinities, dates before 2001 and with fractions, empty and non-ASCII text, nesting.
    static let everything = PropertyList.dictionary([
        .init("text", .string("plain")),
        .init("unicode", .string("ñ café 日本 🎉 \u{0}")),
        .init("empty", .string("")),
        .init("zero", .integer(0)),
        .init("small", .integer(200)),
        .init("medium", .integer(70_000)),
        .init("large", .integer(5_000_000_000)),
        .init("max", .integer(Int64.max)),
        .init("min", .integer(Int64.min)),
        .init("negative", .integer(-1)),
        .init("unsignedMax", .unsigned(UInt64.max)),
        .init("real", .real(3.5)),
        .init("negativeZero", .real(-0.0)),
        .init("infinity", .real(.infinity)),
        .init("tiny", .real(.leastNonzeroMagnitude)),
        .init("yes", .boolean(true)),
        .init("no", .boolean(false)),
        .init("date", .date(-978_307_200.25)),
        .init("data", .data(Array(0...255))),
        .init("noData", .data([])),
        .init("list", .array([.integer(1), .string("plain"), .array([]), .dictionary([])])),
        .init("nested", .dictionary([.init("inner", .dictionary([.init("deep", .boolean(true))]))])),
        .init("uid", .uid(42)),
    ])

    @Test func binaryRoundTripKeepsEveryValueAndOrder() throws {
        let bytes = try PropertyListCodec.write(Self.everything, as: .binary)
        let read = try PropertyListCodec.read(bytes)
        #expect(read.format == .binary)
        #expect(read.value == Self.everything)
        guard case .dictionary(let members) = read.value, case .real(let zero) = members[12].value else {
            Issue.record("not a dictionary")
            return
        }
        #expect(zero.sign == .minus)
    }

    @Test func xmlRoundTripKeepsWhatXMLHolds() throws {
        guard case .dictionary(var members) = Self.everything else { return }
        // XML holds whole seconds and no NUL; a UID reads back as its CF$UID dictionary.
        members[1].value = .string("ñ café 日本 🎉 <&> \r\n")
        members[17].value = .date(-978_307_201)
        members.removeLast()
        let value = PropertyList.dictionary(members)
        let bytes = try PropertyListCodec.write(value, as: .xml)
        let read = try PropertyListCodec.read(bytes)
        #expect(read.format == .xml)
        #expect(read.value == value)
    }

    @Test func xmlRefusesWhatItCannotHold() {
        #expect(throws: PropertyListError.self) { try PropertyListCodec.write(.string("a\u{1}b"), as: .xml) }
        #expect(throws: PropertyListError.self) { try PropertyListCodec.write(.string("\u{FFFE}"), as: .xml) }
        #expect(throws: PropertyListError.self) { try PropertyListCodec.write(.date(-1e12), as: .xml) }
    }

    @Test func binaryStoresRepeatedScalarsOnce() throws {
        let members = (0..<1000).map { PropertyList.Member("key\($0)", .string("same")) }
        let bytes = try PropertyListCodec.write(.dictionary(members), as: .binary)
        // 1000 keys + one value + the dictionary: two-byte references.
        #expect(bytes[bytes.count - 25] == 2)
        #expect(bytes.count < 1000 * 8 + 6 * 1000 + 200)
        #expect(try PropertyListCodec.read(bytes).value == .dictionary(members))
    }

    @Test func datesReadAsTheirText() throws {
        let xml = Array(
            "<plist version=\"1.0\"><array><date>2001-01-01T00:00:00Z</date><date>1970-01-01T00:00:00Z</date><date>2024-02-29T12:34:56Z</date><date>0001-01-01T00:00:00Z</date></array></plist>"
                .utf8)
        let expected: [Double] = [0, -978_307_200, 730_902_896, -63_113_904_000]
        #expect(try PropertyListCodec.read(xml).value == .array(expected.map(PropertyList.date)))
        for seconds in expected {
            #expect(PropertyListDate.seconds(ArraySlice(PropertyListDate.text(seconds)!.utf8)) == seconds)
        }
    }

    @Test func xmlReadsWhatOtherWritersWrite() throws {
        let xml = Array(
            """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <plist version="1.0"><dict>
              <key>a&amp;b</key><string><![CDATA[<raw>]]>&#x41;&#66;</string>
              <key>hex</key><integer> 0x10 </integer>
              <key>big</key><integer>18446744073709551615</integer>
              <key>e</key><string/>
              <key>t</key><true></true>
              <key>n</key><real>-infinity</real>
              <key>d</key><data>
                AAEC
                Aw==
              </data>
            </dict></plist>
            """.utf8)
        let read = try PropertyListCodec.read(xml)
        #expect(
            read.value
                == .dictionary([
                    .init("a&b", .string("<raw>AB")), .init("hex", .integer(16)), .init("big", .unsigned(UInt64.max)),
                    .init("e", .string("")), .init("t", .boolean(true)), .init("n", .real(-.infinity)),
                    .init("d", .data([0, 1, 2, 3])),
                ]))
    }

    @Test func documentMapsToPreferenceValues() throws {
        let (value, isExact) = Self.everything.preferenceValue
        #expect(!isExact)  // the UID
        guard case .dictionary(let values) = value else { return }
        #expect(values["unsignedMax"] == .bigNumber(BigNumber(integer: "18446744073709551615")!))
        #expect(values["uid"] == .dictionary(["CF$UID": .integer(42)]))
        #expect(values["date"] == .date(Date(timeIntervalSinceReferenceDate: -978_307_200.25)))
        let back = try PropertyList(.dictionary(values.filter { $0.key != "uid" }))
        guard case .dictionary(let members) = back else { return }
        #expect(members.map(\.key) == members.map(\.key).sorted())
        #expect(throws: PropertyListError.self) {
            try PropertyList(.bigNumber(BigNumber(integer: "-99999999999999999999")!))
        }
    }
}
