import Testing

@testable import JarvisCore

@Suite struct JSONObjectTests {
    @Test func keepsInsertionOrder() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 10
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == 10)
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object.map(\.value) == [10, 2, 3])
        #expect(object.index(forKey: "c") == 2)
        #expect(object.index(forKey: "zz") == nil)
    }

    @Test func removes() {
        var object = JSONObject([("x", 1), ("y", 2), ("z", 3)])
        #expect(object.removeValue(forKey: "y") == 2)
        #expect(object.removeValue(forKey: "y") == nil)
        object["x"] = nil
        #expect(object.keys == ["z"])
        #expect(object.count == 1)
        object["z"] = nil
        #expect(object.isEmpty)
        #expect(JSONObject().isEmpty)
    }

    @Test func repeatedKeysKeepLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func equalityAndHashIgnoreOrder() {
        let first: JSONObject = ["a": 1, "b": [true]]
        let second: JSONObject = ["b": [true], "a": 1]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([JSONValue.object(first), .object(second)]).count == 1)
        #expect(first != ["a": 1])
        #expect(first != ["a": 2, "b": [true]])
        #expect(first != ["a": 1, "c": [true]])
    }

    @Test func largeObjectsStayConsistentThroughEdits() {
        var object = JSONObject()
        for index in 0..<10_000 {
            object["k\(index)"] = .number(JSONNumber(index))
        }
        #expect(object.count == 10_000)
        #expect(object["k9999"] == 9999)
        #expect(object.index(forKey: "k5000") == 5000)
        object["k5000"] = nil
        #expect(object.index(forKey: "k5001") == 5000)
        #expect(object["k5001"] == 5001)
        object["k0"] = "first"
        #expect(object.keys.first == "k0")
        object["new"] = true
        #expect(object.keys.last == "new")
        #expect(object.index(forKey: "new") == 9999)

    }

    @Test func shrinkingBelowIndexThresholdKeepsLookupsWorking() {
        var object = JSONObject()
        for index in 0..<40 { object["k\(index)"] = .number(JSONNumber(index)) }
        for index in stride(from: 0, to: 40, by: 2) { object["k\(index)"] = nil }
        for index in 1..<30 where index % 2 == 1 { object["k\(index)"] = nil }
        #expect(object.keys == ["k31", "k33", "k35", "k37", "k39"])
        #expect(object["k35"] == 35)
        #expect(object.index(forKey: "k39") == 4)
        for index in 0..<30 { object["k\(index)"] = .number(JSONNumber(index)) }
        #expect(object.count == 35)
        #expect(object.index(forKey: "k29") == 34)
        #expect(object["k31"] == 31)
    }

    @Test func valueConveniences() {
        let value: JSONValue = ["s": "x", "b": false, "i": 7, "d": 2.5, "a": [1], "o": ["k": nil], "n": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == false)
        #expect(value["i"]?.int64Value == 7)
        #expect(value["i"]?.doubleValue == 7)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["d"]?.int64Value == nil)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?["k"]?.isNull == true)
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?["x"] == nil)
        #expect(value["s"]?.int64Value == nil)
        #expect(JSONValue.string("x").isNull == false)
    }
}
