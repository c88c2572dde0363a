import Testing

@Test func placeholderJarvisCoreTests() { #expect(Bool(true)) }
