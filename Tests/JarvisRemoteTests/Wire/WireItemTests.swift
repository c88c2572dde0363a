import Foundation
import JarvisCore
import Testing

@testable import JarvisRemote

/// ``WireItem``'s two readings of its one description: the bytes written for a `get` and the
/// tree every other answer holds give the same JSON, on every item shape.
@Suite struct WireItemTests {
    static let values: [PreferenceValue] = [
        .string(""), .string("plain"), .string("quote \" back \\ slash / tab \t nul \u{0} del \u{7F}"),
        .string("é中文🙂 and U+2028 \u{2028} U+2029 \u{2029} bidi \u{202E}"),
        .string(String(repeating: "long ", count: 200_000)),
        .string(String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) })),
        .integer(0), .integer(-7), .integer(.max), .integer(.min), .real(1.5), .real(2), .real(-0.0), .real(.nan),
        .real(.infinity), .real(-.infinity), .real(1e300), .boolean(true), .boolean(false),
        .date(Date(timeIntervalSinceReferenceDate: 12.25)), .date(Date(timeIntervalSinceReferenceDate: 1 / 3)),
        .data(Data()), .data(Data([0, 1, 2, 255])), .array([]), .array([.integer(1), .string("x"), .array([])]),
        .dictionary([:]), .dictionary(["$a": .integer(1), "b": .array([])]), .dictionary(["k\n": .string("v\u{1}")]),
    ] + [PreferenceValue.integer(decimal: "123456789012345678901234567890"), .real(literal: "1e400")].compactMap { $0 }

    static let names = ["", "plain", "with space", "quote\"", "nl\nx", "中文", "🙂", "ctl\u{1}\u{1F}", "a/b~c"]

    /// Every shape: each value, each name, masked, each layer and encoding, read-only, with a
    /// pointer, a placeholder, notes and each catalog note member.
    static func items() -> [PreferenceItem] {
        var items: [PreferenceItem] = []
        for value in values {
            items.append(
                PreferenceItem(
                    address: PreferenceAddress(scanner: "defaults", container: "app", key: "k"), type: value.type,
                    value: value, revision: Revision(of: value)))
        }
        for name in names {
            items.append(
                PreferenceItem(
                    address: PreferenceAddress(scanner: name, container: name, key: name), type: .string,
                    value: .string(name), revision: Revision(name)))
        }
        let base = items[1]
        var masked = base
        masked.value = nil
        masked.mask = PreferenceItem.Mask(length: 12, fingerprint: "abcd1234")
        items.append(masked)
        for layer in [ValueLayer.stored, .registered] {
            for encoding in [nil, ValueEncoding.json, .propertyList] {
                for writable in [true, false] {
                    var item = base
                    item.layer = layer
                    item.encoding = encoding
                    item.isWritable = writable
                    items.append(item)
                }
            }
        }
        var unset = base
        unset.value = nil
        unset.catalog = CatalogNote(isUnset: true)
        items.append(unset)
        var extras = base
        extras.pointer = try? JSONPointer(parsing: "/a~1b/0/é")
        extras.isPlaceholder = true
        extras.notes = ["rounded", "quote \" nl \n"]
        extras.catalog = CatalogNote(
            defaultValue: .string("dark\u{0}"), description: "Théme \"colour\"\n", allowedValues: [.string("a"), .string("b")],
            range: -1.5...1e20)
        items.append(extras)
        for note in [
            CatalogNote(defaultValue: .string("2\u{2028}")), CatalogNote(description: ""), CatalogNote(allowedValues: []),
            CatalogNote(range: 0...10), CatalogNote(range: -.infinity...Double.greatestFiniteMagnitude),
        ] {
            var item = base
            item.catalog = note
            items.append(item)
        }
        var random = SeededGenerator(seed: 26)
        for _ in 0..<300 { items.append(mixed(&random)) }
        return items
    }

    /// An item whose every member is drawn at random.
    static func mixed(_ random: inout SeededGenerator) -> PreferenceItem {
        let value = values.randomElement(using: &random)
        func name() -> String { names.randomElement(using: &random) ?? "" }
        var item = PreferenceItem(
            address: PreferenceAddress(scanner: name(), container: name(), key: name()), type: value?.type ?? .string,
            value: Bool.random(using: &random) ? value : nil, revision: Revision(name()),
            layer: Bool.random(using: &random) ? .stored : .registered,
            encoding: [nil, ValueEncoding.json, .propertyList].randomElement(using: &random) ?? nil,
            isWritable: Bool.random(using: &random),
            mask: Bool.random(using: &random) ? PreferenceItem.Mask(length: Int.random(in: 0...99, using: &random), fingerprint: name()) : nil)
        if Bool.random(using: &random) { item.pointer = try? JSONPointer(parsing: "/" + name()) }
        item.isPlaceholder = Bool.random(using: &random)
        item.notes = Bool.random(using: &random) ? [name(), name()] : []
        if Bool.random(using: &random) {
            item.catalog = CatalogNote(
                defaultValue: Bool.random(using: &random) ? value : nil,
                description: Bool.random(using: &random) ? name() : nil,
                allowedValues: Bool.random(using: &random) ? [value].compactMap { $0 } : nil,
                range: Bool.random(using: &random) ? -1...Double(Int.random(in: 0...9, using: &random)) : nil,
                isUnset: Bool.random(using: &random))
        }
        return item
    }

    @Test func theBytesWrittenAreTheTreeWritten() throws {
        for item in Self.items() {
            var written: [UInt8] = Array("prefix ".utf8)
            WireItem.write(item, into: &written)
            let tree = WireItem.encode(item)
            #expect(written == Array("prefix ".utf8) + JSONWriter.bytes(tree), "\(item.address)")
            #expect(try JSONParser.parse(Array(written.dropFirst(7))) == tree)
        }
    }

    @Test func whatIsEncodedDecodesToTheSameItem() throws {
        for item in Self.items() {
            // NaN is never equal to itself; its text is checked by the test above.
            if case .real(let number)? = item.value, number.isNaN { continue }
            let decoded = try WireItem.decode(WireItem.encode(item))
            #expect(decoded.address == item.address)
            #expect(decoded.value == item.value)
            #expect(decoded.revision == item.revision)
            #expect(decoded.mask == item.mask)
            #expect(decoded.layer == item.layer && decoded.encoding == item.encoding)
            #expect(decoded.isWritable == item.isWritable && decoded.isPlaceholder == item.isPlaceholder)
            #expect(decoded.pointer == item.pointer && decoded.notes == item.notes)
        }
    }
}
