import Testing

@testable import AggServer

@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer s3cret", true), ("bearer s3cret", true), ("Bearer s3cre", false), ("Bearer s3cretX", false),
        ("Bearer S3cret", false), ("Basic s3cret", false), ("s3cret", false), ("Bearer ", false), ("", false),
    ])
    func acceptsOnlyTheToken(header: String, accepted: Bool) throws {
        let token = try #require(BearerToken("s3cret"))
        #expect(token.accepts(header) == accepted)
    }

    @Test func noHeaderAndEmptyTokens() {
        #expect(BearerToken("") == nil)
        #expect(BearerToken("x")?.accepts(nil) == false)
    }
}
