import AggCore
import AggJSON
import AggTestKit
import Binance
import Foundation
import Testing

private let base = "https://api.binance.com"

private func adapter(_ client: any HTTPClient) -> BinanceAdapter {
    BinanceAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func recorded() throws -> BinanceAdapter {
    adapter(try Fixtures.client("binance", baseURL: base))
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

private let btc = Market(base: "BTC", quote: "USDT")

@Suite("Binance router")
struct BinanceRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker24h(btc), "/api/v3/ticker/24hr?symbol=BTCUSDT"),
            (.ticker24h(Market(base: "ETH", quote: "BTC")), "/api/v3/ticker/24hr?symbol=ETHBTC"),
            (.exchangeInfo, "/api/v3/exchangeInfo"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/binance") == "http://127.0.0.1:8080/binance" + path)
    }

    @Test(
        "symbols split at the longest quote currency they end with, and join back",
        arguments: [
            ("BTCUSDT", Market(base: "BTC", quote: "USDT")),
            ("ETHBTC", Market(base: "ETH", quote: "BTC")),
            ("BTCFDUSD", Market(base: "BTC", quote: "FDUSD")),
            ("USDCUSDT", Market(base: "USDC", quote: "USDT")),
            ("FDUSDUSDT", Market(base: "FDUSD", quote: "USDT")),
            ("BNBETH", Market(base: "BNB", quote: "ETH")),
            ("1000SATSUSDT", Market(base: "1000SATS", quote: "USDT")),
            ("WBTCBTC", Market(base: "WBTC", quote: "BTC")),
        ])
    func roundTrip(symbol: String, market: Market) {
        #expect(APIRouter.market(fromVenueSymbol: symbol) == market)
        #expect(APIRouter.venueSymbol(for: market) == symbol)
    }

    @Test(
        "symbols that end in no known quote, or are only a quote, map to nothing",
        arguments: ["USDT", "BTC", "BTCTRY", "", "btcusdt", "BTC-USDT"])
    func badSymbols(symbol: String) {
        #expect(APIRouter.market(fromVenueSymbol: symbol) == nil)
    }
}

@Suite("Binance decoding")
struct BinanceDecodingTests {
    @Test("the 24-hour ticker maps every field exactly from decimal strings")
    func ticker() async throws {
        let quote = try await recorded().quote(for: btc)
        #expect(
            quote
                == Quote(
                    exchange: "binance", market: btc, last: decimal("58412.07"), open: decimal("58790.53"),
                    high: decimal("59133.5"), low: decimal("56411.23"), previousClose: decimal("58790.52"),
                    change: decimal("-378.46"), changePercent: decimal("-0.644"), changeBasis: .rolling24h,
                    baseVolume: decimal("31245.67812"),
                    quoteVolume: decimal("1802716532.85710318"),
                    timestamp: Timestamp(millisecondsSince1970: 1_723_104_734_987)))
        #expect(quote.last.description == "58412.07")
        #expect(quote.changePercent?.description == "-0.644")
        #expect(quote.timestamp?.description == "2024-08-08T08:12:14.987Z")
    }

    @Test(
        "other quote currencies and negative changes",
        arguments: [
            (Market(base: "ETH", quote: "USDT"), "2478.31", "0.464"),
            (Market(base: "ETH", quote: "BTC"), "0.04243", "1.12"),
            (Market(base: "BTC", quote: "FDUSD"), "58405.12", "-0.64"),
        ])
    func otherMarkets(market: Market, last: String, percent: String) async throws {
        let quote = try await recorded().quote(for: market)
        #expect(quote.market == market)
        #expect(quote.last == decimal(last))
        #expect(quote.changePercent == decimal(percent))
    }

    @Test("the symbol list keeps trading symbols in the quotes agg asks for")
    func markets() async throws {
        let listings = try await recorded().markets()
        #expect(
            listings.map(\.venueSymbol) == ["ETHBTC", "BTCUSDT", "ETHUSDT", "BTCFDUSD", "1000SATSUSDT"])
        #expect(
            listings[0]
                == MarketListing(exchange: "binance", market: Market(base: "ETH", quote: "BTC"), venueSymbol: "ETHBTC"))
    }

    @Test("an answer for another symbol than the one asked for is a decoding error")
    func wrongSymbol() async throws {
        let body = try Fixtures.bytes("binance/ticker_24hr_ETHUSDT.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(
            throws: AggError.decoding(venue: "binance", path: "$.symbol", detail: "asked for BTC/USDT, got ETH/USDT")
        ) {
            try await adapter(client).quote(for: btc)
        }
    }
}

@Suite("Binance errors")
struct BinanceErrorTests {
    @Test("an unknown symbol is not listed, with Binance's code -1121 and message verbatim")
    func unknownSymbol() async throws {
        let nope = Market(base: "NOPE", quote: "USDT")
        await #expect(
            throws: AggError.notListed(venue: "binance", market: nope, code: "-1121", message: "Invalid symbol.")
        ) {
            try await recorded().quote(for: nope)
        }
    }

    @Test(
        "error envelopes become typed errors",
        arguments: [
            (
                "binance/error_-1121_invalid_symbol.json", 400,
                AggError.notListed(venue: "binance", market: btc, code: "-1121", message: "Invalid symbol.")
            ),
            ("binance/error_-1003_too_much_weight.json", 429, .rateLimited(venue: "binance", retryAfterSeconds: 7)),
            ("binance/error_-1003_too_much_weight.json", 418, .rateLimited(venue: "binance", retryAfterSeconds: 7)),
            (
                "binance/error_451_restricted_location.json", 451,
                .locationRestricted(venue: "binance", url: base + "/api/v3/ticker/24hr?symbol=BTCUSDT")
            ),
        ])
    func envelopes(file: String, status: Int, expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(
                status: status, headers: [HTTPHeader(name: "Retry-After", value: "7")], body: body, url: request.url)
        }
        await #expect(throws: expected) {
            try await adapter(client).quote(for: btc)
        }
    }

    @Test("HTTP 451 says plainly that the venue refuses this location")
    func restrictedLocation() async throws {
        let body = try Fixtures.bytes("binance/error_451_restricted_location.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 451, headers: [], body: body, url: request.url)
        }
        do {
            _ = try await adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "binance: HTTP 451: the venue refuses requests from this location (restricted location)")
            #expect(!BinanceAdapter.descriptor.meansNotListed(error))
        }
    }

    @Test("-1121 counts as not listed; other codes do not")
    func notListed() {
        let binance = BinanceAdapter.descriptor
        #expect(binance.meansNotListed(.venue(venue: "binance", code: "-1121", message: "Invalid symbol.")))
        #expect(!binance.meansNotListed(.venue(venue: "binance", code: "-1100", message: "Illegal characters")))
    }

    @Test(
        "fields of the wrong shape become typed errors naming the venue",
        arguments: [
            (200, "{\"symbol\":\"BTCUSDT\",\"lastPrice\":null}", "decoding"),
            (200, "{\"symbol\":\"BTCUSDT\",\"lastPrice\":\"97,0.1\"}", "decoding"),
            (200, "{\"symbol\":\"BTCXYZ\",\"lastPrice\":\"1\"}", "decoding"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "binance")
            #expect(!error.description.contains("\n"))
        }
    }
}
