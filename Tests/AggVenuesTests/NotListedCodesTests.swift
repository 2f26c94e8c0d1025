import AggCore
import AggTestKit
import AggVenues
import Testing

/// Which of a venue's error codes mean "not listed" (and, where the venue has them, which mean a
/// rate limit), one row a venue: the descriptor's codes exactly, every listed code counted by
/// `meansNotListed`, and the venue's other errors not.
struct NotListedCodes: Sendable, CustomTestStringConvertible {
    var venue: String
    var notListed: Set<String>
    var rateLimit: Set<String> = []
    /// An error the venue answers for a market it does not list.
    var listed: AggError
    /// Errors that must not count as not listed.
    var others: [AggError]

    var testDescription: String { venue }
}

@Suite("Not-listed and rate-limit codes of the compiled venues")
struct NotListedCodesTests {
    static let rows = [
        NotListedCodes(
            venue: "binance", notListed: ["-1121"],
            listed: .venue(venue: "binance", code: "-1121", message: "Invalid symbol."),
            others: [.venue(venue: "binance", code: "-1100", message: "Illegal characters")]),
        // 5500 (v2) and 404 (v1) count; 5600 does not.
        NotListedCodes(
            venue: "bithumb", notListed: ["5500", "404"], listed: .venue(venue: "bithumb", code: "5500", message: "x"),
            others: [.venue(venue: "bithumb", code: "5600", message: "x")]),
        NotListedCodes(
            venue: "coinone", notListed: ["108"], rateLimit: ["4"],
            listed: .venue(venue: "coinone", code: "108", message: "Unknown CryptoCurrency"),
            others: [.venue(venue: "coinone", code: "107", message: "Parameter error")]),
        // Only the unknown-pair error counts as not listed; the two rate-limit errors are rate limits.
        NotListedCodes(
            venue: "kraken", notListed: ["EQuery:Unknown asset pair"],
            rateLimit: ["EAPI:Rate limit exceeded", "EGeneral:Too many requests"],
            listed: .venue(venue: "kraken", code: "EQuery:Unknown asset pair", message: "Unknown asset pair"),
            others: [
                .venue(venue: "kraken", code: "EQuery:Unknown asset", message: "Unknown asset"),
                .venue(venue: "kraken", code: "EGeneral:Internal error", message: ""),
            ]),
        // 51001 counts as not listed and 50011 as a rate limit.
        NotListedCodes(
            venue: "okx", notListed: ["51001"], rateLimit: ["50011"],
            listed: .venue(venue: "okx", code: "51001", message: "Instrument ID does not exist"),
            others: [.venue(venue: "okx", code: "51000", message: "Parameter error")]),
        // 404 as the venue's error name counts; other names and an HTTP 404 do not.
        NotListedCodes(
            venue: "upbit", notListed: ["404"], listed: .venue(venue: "upbit", code: "404", message: "Code not found"),
            others: [
                .venue(venue: "upbit", code: "invalid_parameter", message: "x"),
                .http(venue: "upbit", status: 404, url: "https://api.upbit.com"),
            ]),
    ]

    @Test(
        "the venue's not-listed code counts as not listed, its rate-limit codes are rate limits, other errors do not",
        arguments: rows)
    func codes(_ row: NotListedCodes) throws {
        let registration = try #require(AdapterRegistry.standard.registrations.first { $0.descriptor.id == row.venue })
        let descriptor = registration.descriptor
        #expect(descriptor.notListedCodes == row.notListed)
        #expect(descriptor.rateLimitCodes == row.rateLimit)
        #expect(descriptor.meansNotListed(row.listed))
        #expect(row.others.filter(descriptor.meansNotListed) == [])
    }
}
