import AggCore
import AggTestKit
import AggVenues
import Testing

/// One recorded error answer of a venue, the status it comes with, and the error a quote of
/// BTC in the venue's home currency must throw.
struct ErrorEnvelope: Sendable, CustomTestStringConvertible {
    var venue: String
    var file: String
    var status = 200
    var headers: [HTTPHeader] = []
    var expected: AggError

    var testDescription: String { "\(venue) \(file) \(status)" }
}

/// Binance's answers come with `Retry-After: 7`, which its rate limits carry.
private let retryAfter = [HTTPHeader(name: "Retry-After", value: "7")]

@Suite("Error envelopes of the compiled venues")
struct ErrorEnvelopeTests {
    static let binanceBTC = Market(base: "BTC", quote: "USDT")

    static let rows = [
        ErrorEnvelope(
            venue: "binance", file: "binance/error_-1121_invalid_symbol.json", status: 400, headers: retryAfter,
            expected: .notListed(venue: "binance", market: binanceBTC, code: "-1121", message: "Invalid symbol.")),
        ErrorEnvelope(
            venue: "binance", file: "binance/error_-1003_too_much_weight.json", status: 429, headers: retryAfter,
            expected: .rateLimited(venue: "binance", retryAfterSeconds: 7)),
        ErrorEnvelope(
            venue: "binance", file: "binance/error_-1003_too_much_weight.json", status: 418, headers: retryAfter,
            expected: .rateLimited(venue: "binance", retryAfterSeconds: 7)),
        ErrorEnvelope(
            venue: "binance", file: "binance/error_451_restricted_location.json", status: 451, headers: retryAfter,
            expected: .locationRestricted(
                venue: "binance", url: "https://api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT")),
        // Coinbase's error bodies.
        ErrorEnvelope(
            venue: "coinbase", file: "coinbase/error_404_not_found.json", status: 404,
            expected: .notListed(
                venue: "coinbase", market: Market(base: "BTC", quote: "USD"), code: "404", message: "NotFound")),
        ErrorEnvelope(
            venue: "coinbase", file: "coinbase/error_429_rate_limit.json", status: 429,
            expected: .rateLimited(venue: "coinbase", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "coinbase", file: "coinbase/error_404_not_found.json", status: 400,
            expected: .venue(venue: "coinbase", code: "400", message: "NotFound")),
        // Coinone's, whatever the key spelling.
        ErrorEnvelope(
            venue: "coinone", file: "coinone/error_108_unknown_cryptocurrency.json",
            expected: .notListed(
                venue: "coinone", market: Market(base: "BTC", quote: "KRW"), code: "108",
                message: "Unknown CryptoCurrency")),
        ErrorEnvelope(
            venue: "coinone", file: "coinone/error_4_blocked_user_access.json",
            expected: .rateLimited(venue: "coinone", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "coinone", file: "coinone/error_107_parameter_error.json",
            expected: .venue(venue: "coinone", code: "107", message: "Parameter error")),
        // OKX's, whatever the status.
        ErrorEnvelope(
            venue: "okx", file: "okx/error_51001_instrument_not_exist.json",
            expected: .notListed(
                venue: "okx", market: Market(base: "BTC", quote: "USDT"), code: "51001",
                message: "Instrument ID does not exist")),
        ErrorEnvelope(
            venue: "okx", file: "okx/error_50011_too_many_requests.json", status: 429,
            expected: .rateLimited(venue: "okx", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "okx", file: "okx/error_50011_too_many_requests.json",
            expected: .rateLimited(venue: "okx", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "okx", file: "okx/error_51000_parameter_error.json",
            expected: .venue(venue: "okx", code: "51000", message: "Parameter bar error")),
        // Upbit's, with a number or a string name.
        ErrorEnvelope(
            venue: "upbit", file: "upbit/error_404_code_not_found.json", status: 404,
            expected: .notListed(
                venue: "upbit", market: Market(base: "BTC", quote: "KRW"), code: "404", message: "Code not found")),
        ErrorEnvelope(
            venue: "upbit", file: "upbit/error_400_invalid_parameter.json", status: 400,
            expected: .venue(venue: "upbit", code: "invalid_parameter", message: "markets parameter is required")),
        ErrorEnvelope(
            venue: "upbit", file: "upbit/error_429_too_many_requests.json", status: 429,
            expected: .rateLimited(venue: "upbit", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "upbit", file: "upbit/error_429_too_many_requests.json", status: 418,
            expected: .rateLimited(venue: "upbit", retryAfterSeconds: nil)),
        ErrorEnvelope(
            venue: "upbit", file: "upbit/error_400_invalid_parameter.json",
            expected: .venue(venue: "upbit", code: "invalid_parameter", message: "markets parameter is required")),
    ]

    @Test("error envelopes become typed errors", arguments: rows)
    func envelope(_ row: ErrorEnvelope) async throws {
        let registration = try #require(AdapterRegistry.standard.registrations.first { $0.descriptor.id == row.venue })
        let market = Market(base: "BTC", quote: registration.descriptor.homeCurrency)
        let failure = ScriptedFailure(status: row.status, headers: row.headers, body: try Fixtures.bytes(row.file))
        #expect(await failure.error { try await registration.adapter($0).quote(for: market) } == row.expected)
    }
}
