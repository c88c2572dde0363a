import Testing

@testable import JarvisCore

@Suite struct JSONNumberTests {
    @Test func integers() {
        #expect(JSONNumber(Int64.max).text == "9223372036854775807")
        #expect(JSONNumber(Int64.min).int64Value == Int64.min)
        #expect(JSONNumber(-5).text == "-5")
        #expect(JSONNumber(42).isInteger)
    }

    @Test func doublesAlwaysLookReal() {
        #expect(JSONNumber(1.0)?.text == "1.0")
        #expect(JSONNumber(1e20)?.text == "1e+20")
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(-0.0)?.text == "-0.0")
        #expect(JSONNumber(Double.leastNonzeroMagnitude)?.text == "5e-324")
        #expect(JSONNumber(1.0)?.isInteger == false)
        #expect(JSONNumber(.nan) == nil)
        #expect(JSONNumber(.infinity) == nil)
        #expect(JSONNumber(-.infinity) == nil)
        for value in [0.1, 1.0 / 3, 123456.789, 1e-7, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude] {
            let number = JSONNumber(value)
            #expect(number?.doubleValue == value)
            #expect(number.map { JSONNumber(text: $0.text) != nil } == true)
        }
    }

    @Test(arguments: [
        "0", "-0", "1", "-1", "10", "1.5", "0.0", "1e5", "1E5", "1e+5", "1e-5", "-1.25E-007", "12345678901234567890123",
    ])
    func acceptsValidText(_ text: String) {
        #expect(JSONNumber(text: text)?.text == text)
    }

    @Test(arguments: [
        "", "-", "+1", "01", "-01", ".5", "1.", "1e", "1e+", "NaN", "Infinity", " 1", "1 ", "0x10", "1.5.2", "--1",
        "1e5e5",
    ])
    func rejectsInvalidText(_ text: String) {
        #expect(JSONNumber(text: text) == nil)
    }

    @Test func conversions() {
        #expect(JSONNumber(text: "9223372036854775808")?.int64Value == nil)
        #expect(JSONNumber(text: "-9223372036854775808")?.int64Value == Int64.min)
        #expect(JSONNumber(text: "1.0")?.int64Value == nil)
        #expect(JSONNumber(text: "1e2")?.int64Value == nil)
        #expect(JSONNumber(text: "1e2")?.doubleValue == 100)
        #expect(JSONNumber(text: "1e400")?.doubleValue == nil)
        #expect(JSONNumber(text: "123456789012345678901234567890")?.isInteger == true)
    }

    @Test func equalityIsByText() {
        #expect(JSONNumber(1) != JSONNumber(1.0))
        #expect(JSONNumber(text: "1.0") == JSONNumber(1.0))
        #expect(Set([JSONNumber(1), JSONNumber(Int64(1))]).count == 1)
        #expect("\(JSONNumber(7))" == "7")
    }
}
