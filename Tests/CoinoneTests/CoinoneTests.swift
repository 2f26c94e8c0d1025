import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Coinone

// What Coinone answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/coinone/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(CoinoneAdapter.self)
private let base = bed.baseURL
private let btc = bed.market("BTC")
private let eth = bed.market("ETH")

@Suite("Coinone router")
struct CoinoneRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker(btc), "/public/v2/ticker_new/KRW/BTC"),
            (.allTickers(quote: "KRW"), "/public/v2/ticker_new/KRW"),
            (.markets(quote: "KRW"), "/public/v2/markets/KRW"),
            (.orderBook(btc, size: 15), "/public/v2/orderbook/KRW/BTC?size=15"),
            (.trades(btc, size: 200), "/public/v2/trades/KRW/BTC?size=200"),
            (.chart(btc, interval: .oneMinute, size: 200), "/public/v2/chart/KRW/BTC?interval=1m&size=200"),
            (.chart(eth, interval: .oneHour, size: 5), "/public/v2/chart/KRW/ETH?interval=1h&size=5"),
            (.chart(eth, interval: .oneDay, size: 5), "/public/v2/chart/KRW/ETH?interval=1d&size=5"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/coinone") == "http://127.0.0.1:8080/coinone" + path)
    }

    @Test("the descriptor declares what the adapter does, and Coinone's limits")
    func descriptor() {
        let descriptor = CoinoneAdapter.descriptor
        #expect(descriptor.id == "coinone")
        #expect(descriptor.country == "KR")
        #expect(descriptor.homeCurrency == "KRW")
        #expect(descriptor.quoteCurrencies == ["KRW"])
        #expect(
            descriptor.capabilities
                == [.ticker, .allTickers, .markets, .candles, .trades, .orderBook, .transferStatus, .stream])
        #expect(descriptor.requestsPerSecond == 5)
        #expect(descriptor.changeBasis == .rolling24h)
        #expect(descriptor.notListedCodes == ["108"])
        #expect(descriptor.rateLimitCodes == ["4"])
        #expect(descriptor.defaultBaseURL == base)
        #expect(
            descriptor.limits
                == FetchLimits(
                    candles: 500, trades: 200, bookDepth: 16,
                    candleIntervals: [
                        .oneMinute, .threeMinutes, .fiveMinutes, .tenMinutes, .thirtyMinutes, .oneHour, .sixHours,
                        .oneDay,
                    ]))
    }
}

@Suite("Coinone tickers")
struct CoinoneTickerTests {
    @Test("the market list: upper-case codes, suspended markets left out")
    func markets() async throws {
        let client = try bed.recorded()
        let listings = try await bed.adapter(client).markets()
        #expect(client.requests.map(\.url) == [base + "/public/v2/markets/KRW"])
        #expect(listings.count == 219)
        #expect(listings.first == MarketListing(exchange: "coinone", market: btc, venueSymbol: "KRW/BTC"))
        #expect(!listings.contains { $0.market.base == "BLAST" })
    }
}

@Suite("Coinone errors")
struct CoinoneErrorTests {
    @Test("the rate-limit block reads as such on one line naming the venue")
    func blocked() async throws {
        let body = try Fixtures.bytes("coinone/error_4_blocked_user_access.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        do {
            _ = try await bed.adapter(client).allQuotes(quotedIn: "KRW")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "coinone: rate limited by coinone")
            #expect(!CoinoneAdapter.descriptor.meansNotListed(error))
        }
    }

    @Test(
        "broken answers become typed errors naming the venue",
        arguments: [
            (200, "<html><body>Bad gateway</body></html>", "decoding"),
            (502, "", "http"),
            (200, "{}", "decoding"),
            (200, #"{"result":"success","tickers":{}}"#, "decoding"),
            (200, #"{"result":"success","tickers":[]}"#, "decoding"),
            (
                200, #"{"result":"success","tickers":[{"quote_currency":"krw","target_currency":"btc","last":null}]}"#,
                "decoding"
            ),
            (
                200,
                #"{"result":"success","tickers":[{"quote_currency":"krw","target_currency":"btc","last":"80.64.0"}]}"#,
                "decoding"
            ),
            (
                200, #"{"result":"success","tickers":[{"quote_currency":"usd","target_currency":"btc","last":"1"}]}"#,
                "decoding"
            ),
            (200, #"{"result":"error"}"#, "venue"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "coinone")
        #expect(error?.description.contains("\n") == false)
    }
}
