import Foundation
import JarvisCore
import Testing

@testable import JarvisScanners

@Suite struct PropertyListValueTests {
    private func decode(_ object: Any) throws -> PreferenceValue {
        try PropertyListValue.decode(object, path: "key").value
    }

    @Test func valuesDeeperThanTheWireCarriesAreRefused() throws {
        var deepest: Any = 1
        for _ in 0..<PreferenceValue.maxDepth { deepest = [deepest] }
        #expect(try decode(deepest).depth == PreferenceValue.maxDepth)
        #expect(throws: JarvisError.self) { try decode([deepest]) }
        #expect(throws: JarvisError.self) { try decode(["inner": deepest]) }
    }

    @Test func numbersKeepTheirKind() throws {
        #expect(try decode(true) == .boolean(true))
        #expect(try decode(NSNumber(value: false)) == .boolean(false))
        #expect(try decode(1) == .integer(1))
        #expect(try decode(NSNumber(value: Int64.min)) == .integer(.min))
        #expect(try decode(NSNumber(value: 1.0)) == .real(1.0))
        #expect(try decode(Float(0.5)) == .real(0.5))
        #expect(try decode(NSNumber(value: UInt64(7))) == .integer(7))
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func kindsSurviveARealFile(format: PropertyListSerialization.PropertyListFormat) throws {
        let folder = try TemporaryFolder()
        try folder.writePlist("kinds.plist", PropertyListValue.encode(everyType), format: format)
        let (object, _) = try folder.readPlist("kinds.plist")
        let decoded = try PropertyListValue.decode(object, path: "")
        #expect(decoded.value == everyType)
        #expect(decoded.isExact)
        guard case .dictionary(let values) = decoded.value else { return }
        #expect(values["true"] == .boolean(true))
        #expect(values["integer"] == .integer(1))
        #expect(values["real"] == .real(1.0))
    }

    /// `UInt64` values above `Int64.max` keep their exact digits and are written back unsigned.
    @Test func unsignedBeyondInt64KeepsItsDigits() throws {
        let decoded = try PropertyListValue.decode(NSNumber(value: UInt64.max), path: "big")
        #expect(decoded.value == .integer(decimal: "18446744073709551615"))
        #expect(decoded.value.type == .integer)
        #expect(decoded.isExact)
        let nested = try PropertyListValue.decode(["a": [NSNumber(value: UInt64.max)]] as [String: Any], path: "")
        #expect(nested.isExact)
        let entry = try DefaultsEntries.entry(key: "big", object: NSNumber(value: UInt64.max), layer: .stored)
        #expect(entry.isWritable)
        let object = try PropertyListValue.encode(decoded.value)
        #expect((object as? NSNumber)?.uint64Value == UInt64.max)
    }

    @Test func numbersAPropertyListCannotHoldAreRefusedByName() throws {
        let beyond = try #require(PreferenceValue.integer(decimal: "18446744073709551616"))
        let error = #expect(throws: JarvisError.self) {
            try PropertyListValue.encode(.dictionary(["a": .array([beyond])]), path: "key")
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.message.contains("key.a[0]") == true)
        let negative = try #require(PreferenceValue.integer(decimal: "-9223372036854775809"))
        #expect(throws: JarvisError.self) { try PropertyListValue.encode(negative) }
        let real = try #require(PreferenceValue.real(literal: "1e400"))
        #expect(throws: JarvisError.self) { try PropertyListValue.encode(real) }
    }

    @Test func optionalsAndAnyHashableKeysAreOpened() throws {
        let inner: Any? = 3
        let wrapped: Any = Optional<Any>.some(inner as Any) as Any
        #expect(try decode(wrapped) == 3)
        let hashable: [AnyHashable: Any] = ["a": Optional<Any>.some("x") as Any]
        #expect(try decode(hashable) == ["a": "x"])
    }

    @Test func unknownObjectsRaiseAClearError() {
        #expect(throws: JarvisError.self) { try decode(URL(fileURLWithPath: "/")) }
        #expect(throws: JarvisError.self) { try decode(NSNull()) }
        #expect(throws: JarvisError.self) { try decode(Optional<Any>.none as Any) }
        #expect(throws: JarvisError.self) { try decode([1: "x"] as [AnyHashable: Any]) }
        do {
            _ = try PropertyListValue.decode(["list": [1, URL(fileURLWithPath: "/")]] as [String: Any], path: "")
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.message.contains("list[1]"))
        }
    }
}
