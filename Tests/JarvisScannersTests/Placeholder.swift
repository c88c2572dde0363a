import Testing

@Test func placeholderJarvisScannersTests() { #expect(Bool(true)) }
