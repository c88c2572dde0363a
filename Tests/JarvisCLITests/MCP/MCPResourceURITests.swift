import Testing

@testable import jarvis

@Suite struct MCPResourceURITests {
    @Test func eachPartIsOnePercentEncodedSegment() throws {
        let uri = MCPResourceURI(agent: "My App", scanner: "files", container: "env/prod.json")
        #expect(uri.description == "jarvis://My%20App/files/env%2Fprod.json")
        #expect(MCPResourceURI(parsing: uri.description) == uri)
        let unicode = MCPResourceURI(agent: "app", scanner: "defaults", container: "com.exämple~1")
        #expect(MCPResourceURI(parsing: unicode.description) == unicode)
    }

    @Test func otherFormsAreRefused() {
        for text in [
            "https://example.com/a/b", "jarvis://a/b", "jarvis://a/b/c/d", "jarvis://a//c", "jarvis://a/b/%zz",
            "jarvis://a/b/%FF", "jarvis://a/b/%4",
        ] {
            #expect(MCPResourceURI(parsing: text) == nil, "\(text)")
        }
    }

    @Test func theContainerGlobMatchesOnlyItself() {
        let uri = MCPResourceURI(agent: "a", scanner: "files", container: "odd[1]*?.json")
        #expect(uri.containerGlob == #"odd\[1\]\*\?.json"#)
    }
}
