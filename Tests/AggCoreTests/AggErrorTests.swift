import AggCore
import AggJSON
import Testing

@Suite("AggError")
struct AggErrorTests {
    static let url = "https://api.bithumb.com/public/ticker/BTC_KRW"

    /// At least one example of every case; keep `everyKind` below in step with the enum.
    static let examples: [AggError] = [
        .invalidSymbol("B TC", reason: "codes hold only letters A-Z and digits 0-9"),
        .invalidCurrency("US"),
        .unknownExchange("bitumb", known: ["bithumb", "upbit"]),
        .unknownExchange("x", known: []),
        .usage("missing a symbol; try agg quote BTC"),
        .unsupported(venue: "coinbase", capability: .orderBook),
        .venue(venue: "bithumb", code: "5500", message: "Invalid Parameter"),
        .venue(venue: "bithumb", code: "5600", message: "잠시 후 다시 시도해 주세요.\n(요청 횟수 초과)"),
        .notListed(
            venue: "upbit", market: Market(base: "XYZ", quote: "KRW"), code: "404",
            message: "Code not found"),
        .notListed(
            venue: "bithumb", market: Market(base: "XYZ", quote: "KRW"), code: "5500", message: ""),
        .http(
            venue: "binance", status: 503,
            url: "https://api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT"),
        .locationRestricted(
            venue: "binance", url: "https://api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT"),
        .rateLimited(venue: "upbit", retryAfterSeconds: 1),
        .rateLimited(venue: "upbit", retryAfterSeconds: nil),
        .timeout(venue: "bithumb", url: url, seconds: 10),
        .timeout(venue: "bithumb", url: url, seconds: 2.5),
        .timeout(venue: "bithumb", url: url, seconds: 1e300),
        .timeout(venue: "bithumb", url: url, seconds: .infinity),
        .connection(venue: "bithumb", url: url, detail: "Could not resolve host: api.bithumb.com"),
        .connection(venue: "bithumb", url: url, detail: "Recv failure:\r\nConnection reset by peer"),
        .decoding(
            venue: "bithumb", path: "$.data.closing_price", detail: "expected a decimal, found nothing"),
        .decoding(
            JSONDecodingError(path: "$.data[3][2]", reason: "expected a decimal, found an object"),
            venue: "bithumb"),
        .responseTooLarge(venue: "bithumb", url: url, limit: 64 * 1024 * 1024),
        .store("disk I/O error"),
        .offline("no recorded response for bithumb ticker BTC/KRW"),
    ]

    static let everyKind: Set<String> = [
        "invalidSymbol", "invalidCurrency", "unknownExchange", "usage", "unsupported", "venue",
        "notListed", "http",
        "locationRestricted", "rateLimited", "timeout", "connection", "decoding", "responseTooLarge",
        "store", "offline",
    ]

    @Test("the examples cover every case")
    func coverage() {
        #expect(Set(Self.examples.map(\.kind)) == Self.everyKind)
    }

    @Test("every description is one non-empty line that names the venue", arguments: examples)
    func description(error: AggError) {
        let text = error.description
        #expect(!text.isEmpty)
        let isOneLine = !text.contains(where: \.isNewline)
        #expect(isOneLine, "\(text.debugDescription)")
        if let venue = error.venue {
            #expect(text.hasPrefix("\(venue): "))
        } else {
            #expect(text == error.message)
        }
    }

    @Test("usage errors are exactly the four kinds of bad user input", arguments: examples)
    func usage(error: AggError) {
        let userInput: Set<String> = ["invalidSymbol", "invalidCurrency", "unknownExchange", "usage"]
        #expect(error.isUsageError == userInput.contains(error.kind))
        #expect(
            error.isUsageError == (error.venue == nil && !["store", "offline"].contains(error.kind)))
    }

    static let descriptions: [(error: AggError, text: String)] = [
        (.invalidCurrency("US"), "invalid currency code 'US': expected three letters A-Z, such as USD"),
        (
            .unknownExchange("bitumb", known: ["bithumb", "upbit"]),
            "unknown exchange 'bitumb'; known: bithumb, upbit"
        ),
        (
            .unsupported(venue: "coinbase", capability: .orderBook),
            "coinbase: order book is not supported by coinbase"
        ),
        (
            .venue(venue: "bithumb", code: "5500", message: "Invalid Parameter"),
            "bithumb: error 5500: Invalid Parameter"
        ),
        (
            .notListed(
                venue: "upbit", market: Market(base: "XYZ", quote: "KRW"), code: "404",
                message: "Code not found"),
            "upbit: XYZ/KRW is not listed (error 404: Code not found)"
        ),
        (
            .http(venue: "binance", status: 503, url: "https://x.test/a"),
            "binance: HTTP 503 from https://x.test/a"
        ),
        (
            .rateLimited(venue: "upbit", retryAfterSeconds: 30),
            "upbit: rate limited by upbit, retry after 30 s"
        ),
        (.rateLimited(venue: "upbit", retryAfterSeconds: nil), "upbit: rate limited by upbit"),
        (
            .timeout(venue: "bithumb", url: "https://x.test/a", seconds: 10),
            "bithumb: no answer within 10 s from https://x.test/a"
        ),
        (
            .timeout(venue: "bithumb", url: "https://x.test/a", seconds: 2.5),
            "bithumb: no answer within 2.5 s from https://x.test/a"
        ),
        (
            .decoding(venue: "bithumb", path: "$.data", detail: "expected an object, found null"),
            "bithumb: unexpected response at $.data: expected an object, found null"
        ),
        (
            .responseTooLarge(venue: "bithumb", url: "https://x.test/a", limit: 1024),
            "bithumb: the answer from https://x.test/a is larger than the limit of 1024 bytes"
        ),
        (.store("disk I/O error"), "database: disk I/O error"),
        (
            .venue(venue: "bithumb", code: "5600", message: "입력값을 확인해주세요."),
            "bithumb: error 5600: 입력값을 확인해주세요. [English: please check the input]"
        ),
        (
            .notListed(
                venue: "bithumb", market: Market(base: "NOPE", quote: "KRW"), code: "5500",
                message: "잘못된 코인명입니다."),
            "bithumb: NOPE/KRW is not listed (error 5500: 잘못된 코인명입니다. [English: invalid coin name])"
        ),
        (
            .venue(venue: "bithumb", code: "5600", message: "잠시 후 다시 시도해 주세요.\n(요청 횟수 초과)"),
            "bithumb: error 5600: 잠시 후 다시 시도해 주세요. (요청 횟수 초과)"
        ),
    ]

    @Test("descriptions read as documented", arguments: descriptions)
    func exactDescription(error: AggError, text: String) {
        #expect(error.description == text)
    }

    @Test("codes for JSON output")
    func codes() {
        #expect(AggError.http(venue: "binance", status: 503, url: "u").code == "503")
        #expect(AggError.locationRestricted(venue: "binance", url: "u").code == "451")
        #expect(AggError.rateLimited(venue: "upbit", retryAfterSeconds: nil).code == "429")
        #expect(AggError.venue(venue: "bithumb", code: "5500", message: "m").code == "5500")
        // JSON keeps the venue's message verbatim; the gloss is for the one-line text only.
        #expect(AggError.venue(venue: "bithumb", code: "5600", message: "입력값을 확인해주세요.").message == "입력값을 확인해주세요.")
        #expect(AggError.usage("x").code == nil)
    }

    @Test("a not-listed answer without a venue code has no code (null in JSON), not an empty one")
    func notListedWithoutCode() {
        let market = Market(base: "NOPE", quote: "KRW")
        #expect(AggError.notListed(venue: "bithumb", market: market, code: "", message: "").code == nil)
        #expect(AggError.notListed(venue: "bithumb", market: market, code: "5500", message: "m").code == "5500")
    }
}
