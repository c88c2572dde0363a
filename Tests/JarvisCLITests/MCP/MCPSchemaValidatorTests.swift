import JarvisCore
import Testing

@testable import jarvis

@Suite struct MCPSchemaValidatorTests {
    let schema = MCPSchema.input(
        [
            ("name", MCPSchema.string("a name", maxLength: 5)),
            ("count", MCPSchema.integer("a count", minimum: 1, maximum: 10)),
            ("kind", MCPSchema.oneOf(["a", "b"], "a kind")),
            ("flag", MCPSchema.boolean("a flag")),
            ("side", ["type": ["object", "string"]]),
            ("value", MCPSchema.any("anything")),
        ], required: ["name"])

    @Test func argumentsThatFitPass() {
        let fits: JSONValue = ["name": "abc", "count": 3, "kind": "b", "flag": true, "side": ["x": 1], "value": nil]
        #expect(MCPSchemaValidator.problem(fits, against: schema) == nil)
        #expect(MCPSchemaValidator.problem(["name": "ab", "side": "agent"], against: schema) == nil)
    }

    @Test(arguments: [
        (["count": 3] as JSONValue, "'name' is required"),
        (["name": 5] as JSONValue, "'name' must be a string, not an integer"),
        (["name": "abcdef"] as JSONValue, "at most 5"),
        (["name": "a", "count": 0] as JSONValue, "at least 1"),
        (["name": "a", "count": 11] as JSONValue, "at most 10"),
        (["name": "a", "count": 2.5] as JSONValue, "must be an integer"),
        (["name": "a", "kind": "c"] as JSONValue, "one of"),
        (["name": "a", "flag": "yes"] as JSONValue, "must be a boolean"),
        (["name": "a", "side": 1] as JSONValue, "an object or a string"),
        (["name": "a", "colour": "red"] as JSONValue, "no argument 'colour'"),
        ("text" as JSONValue, "the arguments must be an object"),
    ])
    func eachProblemIsNamed(arguments: JSONValue, expected: String) throws {
        let problem = try #require(MCPSchemaValidator.problem(arguments, against: schema))
        #expect(problem.contains(expected), "\(problem)")
    }

    @Test func everyPublishedToolSchemaAcceptsItsOwnMinimalCall() {
        for tool in MCPToolCatalog.tools(allowReveal: true) {
            var minimal = JSONObject()
            for name in tool.input["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                minimal[name] = name == "value" ? 1 : "x"
            }
            #expect(MCPSchemaValidator.problem(.object(minimal), against: tool.input) == nil, "\(tool.name)")
        }
    }
}
