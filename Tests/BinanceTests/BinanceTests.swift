import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Binance

// What Binance answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/binance/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(BinanceAdapter.self)
private let base = bed.baseURL

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
    @Test("an answer for another symbol than the one asked for is a decoding error")
    func wrongSymbol() async throws {
        let body = try Fixtures.bytes("binance/ticker_24hr_ETHUSDT.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 200, headers: [], body: body, url: request.url)
        }
        await #expect(
            throws: AggError.decoding(venue: "binance", path: "$.symbol", detail: "asked for BTC/USDT, got ETH/USDT")
        ) {
            try await bed.adapter(client).quote(for: btc)
        }
    }
}

@Suite("Binance errors")
struct BinanceErrorTests {
    @Test("HTTP 451 says plainly that the venue refuses this location")
    func restrictedLocation() async throws {
        let body = try Fixtures.bytes("binance/error_451_restricted_location.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: 451, headers: [], body: body, url: request.url)
        }
        do {
            _ = try await bed.adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "binance: HTTP 451: the venue refuses requests from this location (restricted location)")
            #expect(!BinanceAdapter.descriptor.meansNotListed(error))
        }
    }

    @Test(
        "fields of the wrong shape become typed errors naming the venue",
        arguments: [
            (200, "{\"symbol\":\"BTCUSDT\",\"lastPrice\":null}", "decoding"),
            (200, "{\"symbol\":\"BTCUSDT\",\"lastPrice\":\"97,0.1\"}", "decoding"),
            (200, "{\"symbol\":\"BTCXYZ\",\"lastPrice\":\"1\"}", "decoding"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "binance")
        #expect(error?.description.contains("\n") == false)
    }
}
