import Foundation
import Testing

@testable import JarvisCore

@Suite struct ValueReadingTests {
    @Test func aPlaceKeepsItsType() throws {
        #expect(try ValueReading("9090", current: .integer).value == .integer(9090))
        #expect(try ValueReading("true", current: .boolean).value == .boolean(true))
        #expect(try ValueReading("3", current: .real).value == .real(3))
        #expect(try ValueReading("9090", current: .string).value == .string("9090"))
        #expect(try ValueReading("true", current: .string).value == .string("true"))
        #expect(try ValueReading("[1, 2]", current: .array).value == .array([.integer(1), .integer(2)]))
        #expect(try ValueReading(" 42 ", current: .integer).basis == .kept)
    }

    @Test func textThatDoesNotFitNamesTheTypeToSend() {
        #expect(throws: JarvisError.self) { try ValueReading("abc", current: .integer) }
        do {
            _ = try ValueReading("abc", current: .integer)
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.message.contains("'abc' is not a whole number"))
            #expect(error.message.contains("send type \"string\""))
        }
        do {
            _ = try ValueReading("2.5", current: .integer)
        } catch {
            // The literal's own type is the likelier wish than a string.
            #expect(error.message.contains("send type \"real\""))
        }
        do {
            _ = try ValueReading("{\"a\": 1}", current: .array)
        } catch {
            #expect(error.message.contains("that is a dictionary"))
        }
    }

    @Test func aNewPlaceTakesTheLiteralsTypeAndSaysSo() throws {
        let port = try ValueReading("9090", current: nil)
        #expect(port.value == .integer(9090))
        #expect(port.basis == .chosen)
        #expect(port.note == "stored as an integer; send type \"string\" to store the text")
        // Where the container refuses the literal's type, the text itself is what to store.
        #expect(port.asText?.value == .string("9090"))
        #expect(port.asText?.note == "stored as a string")
        #expect(try ValueReading("hello", current: nil).asText == nil)
        #expect(try ValueReading("9090", current: .integer).asText == nil)
        #expect(try ValueReading("true", current: nil).value == .boolean(true))
        #expect(try ValueReading("2.5", current: nil).value == .real(2.5))
        #expect(try ValueReading("1e400", current: nil).value == PreferenceValue.real(literal: "1e400"))
        // Not JSON number literals: kept as text.
        for text in ["02134", "True", "nan", "1.", "", "null", "[1]", "hello", "0x10", "+5"] {
            let reading = try ValueReading(text, current: nil)
            #expect(reading.value == .string(text), "\(text)")
            #expect(reading.note == "stored as a string")
        }
    }

    @Test func anAskedTypeWins() throws {
        let text = try ValueReading("9090", as: .string, current: .integer)
        #expect(text.value == .string("9090"))
        #expect(text.basis == .asked)
        #expect(text.note == nil)
        #expect(throws: JarvisError.self) { try ValueReading("x", as: .integer, current: .string) }
        #expect(try ValueReading("2024-01-15T10:00:00Z", as: .date, current: nil).value.type == .date)
    }

    @Test func jsonValuesKeepThePlacesType() throws {
        #expect(try ValueReading(json: .string("9090"), current: .integer).value == .integer(9090))
        #expect(try ValueReading(json: .number(JSONNumber(9090)), current: .string).value == .string("9090"))
        #expect(try ValueReading(json: .number(JSONNumber(3)), current: .real).value == .real(3))
        #expect(try ValueReading(json: .bool(false), current: .boolean).value == .boolean(false))
        #expect(try ValueReading(json: .string("9090"), current: nil).value == .integer(9090))
        #expect(try ValueReading(json: .number(JSONNumber(7)), current: nil).value == .integer(7))
        #expect(try ValueReading(json: .array([.string("a")]), current: .array).value == .array([.string("a")]))
        #expect(
            try ValueReading(json: .object(["$date": .string("2024-01-15T10:00:00Z")]), current: .date).value.type
                == .date)
        do {
            _ = try ValueReading(json: .array([]), current: .string)
            Issue.record("an array for a string key was accepted")
        } catch {
            #expect(error.message.contains("send type \"array\""))
        }
        #expect(throws: JarvisError.self) { try ValueReading(json: .bool(true), current: .integer) }
    }
}
