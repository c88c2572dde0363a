import Testing

@Test func placeholderJarvisRemoteTests() { #expect(Bool(true)) }
