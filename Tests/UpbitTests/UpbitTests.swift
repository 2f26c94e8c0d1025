import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import Upbit

// What Upbit answers from its recordings (every capability, exact values, requests and errors)
// is data: Fixtures/upbit/expectations.json, run by VenueExpectationTests. These are its quirks.

private let bed = AdapterTestBed(UpbitAdapter.self)
private let base = bed.baseURL

private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")
private let nope = Market(base: "NOPE", quote: "KRW")

@Suite("Upbit router")
struct UpbitRouterTests {
    @Test(
        "every endpoint's URL",
        arguments: [
            (APIRouter.ticker([btc]), "/v1/ticker?markets=KRW-BTC"),
            (.ticker([btc, eth]), "/v1/ticker?markets=KRW-BTC,KRW-ETH"),
            (.ticker([Market(base: "ETH", quote: "BTC")]), "/v1/ticker?markets=BTC-ETH"),
            (.marketAll, "/v1/market/all"),
            (.allTickers(quote: "KRW"), "/v1/ticker/all?quote_currencies=KRW"),
        ])
    func url(route: APIRouter, path: String) {
        #expect(route.url(baseURL: base) == base + path)
        #expect(route.url(baseURL: "http://127.0.0.1:8080/upbit") == "http://127.0.0.1:8080/upbit" + path)
    }

    @Test(
        "market codes map to unified markets and back",
        arguments: [
            ("KRW-BTC", Market(base: "BTC", quote: "KRW")),
            ("BTC-ETH", Market(base: "ETH", quote: "BTC")),
            ("USDT-BTC", Market(base: "BTC", quote: "USDT")),
            ("KRW-1INCH", Market(base: "1INCH", quote: "KRW")),
        ])
    func roundTrip(code: String, market: Market) {
        #expect(APIRouter.market(fromVenueSymbol: code) == market)
        #expect(APIRouter.venueSymbol(for: market) == code)
    }

    @Test(
        "codes that are not QUOTE-BASE with a quote Upbit serves map to nothing",
        arguments: ["BTC", "KRW-", "-BTC", "EUR-BTC", "KRW-BTC-X", "KRW-btc", "KRW-B%TC", "BTC-KRW-"])
    func badCodes(code: String) {
        #expect(APIRouter.market(fromVenueSymbol: code) == nil)
    }

    @Test("a market in a currency Upbit does not quote has no code")
    func unservedQuote() {
        #expect(APIRouter.venueSymbol(for: Market(base: "BTC", quote: "USD")) == nil)
    }
}

@Suite("Upbit decoding")
struct UpbitDecodingTests {
    @Test("without the market list, each market of a failed batch is asked for on its own")
    func batchWithoutMarketList() async throws {
        let responder = try FixtureResponder(venue: "upbit", baseURL: base)
        let client = ScriptedHTTPClient { request in
            guard !request.url.hasSuffix("/v1/market/all") else {
                throw TransportError.timeout(url: request.url, seconds: 1)
            }
            return try responder.respond(to: request)
        }
        let results = await bed.adapter(client).quotes(for: [btc, nope])
        #expect(client.requests.count == 4)
        #expect(
            Set(client.requests.dropFirst(2).map(\.url)) == [
                base + "/v1/ticker?markets=KRW-BTC", base + "/v1/ticker?markets=KRW-NOPE",
            ])
        #expect(try results[btc]?.get().last == 80_651_000)
        #expect(results[nope].map { if case .failure(let error) = $0 { error.isNotListed } else { false } } == true)
    }

    /// Rule 1 of issue 20 for market lists: one damaged entry costs only itself.
    @Test("a damaged entry of the market list is left out; the others are listed")
    func damagedListing() async throws {
        let body =
            #"[{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin"},"#
            + #"{"market":"KRW-ETH","korean_name":7},{"market":null},"#
            + #"{"market":"KRW-XRP","korean_name":"엑스알피(리플)","english_name":"XRP"}]"#
        let listings = try await bed.adapter(ScriptedHTTPClient(body: body)).markets()
        #expect(listings.map(\.venueSymbol) == ["KRW-BTC", "KRW-XRP"])
    }
}

@Suite("Upbit quota header")
struct UpbitQuotaHeaderTests {
    @Test("the descriptor reads Remaining-Req, and every recorded one parses")
    func recordedHeadersParse() throws {
        #expect(UpbitAdapter.descriptor.quotaHeader == .remainingReq)
        let headers = try Fixtures.routes("upbit").routes.flatMap(\.headers).filter { $0.name == "Remaining-Req" }
        #expect(headers.count == 20)
        for header in headers {
            #expect(RemainingRequests(header: header.value)?.perMinute == 600, "\(header.value)")
        }
    }
}

@Suite("Upbit errors")
struct UpbitErrorTests {
    @Test(
        "answers of the wrong shape become typed errors naming the venue",
        arguments: [
            (200, "[]", "decoding"),
            (200, "[{\"market\":\"KRW-BTC\",\"trade_price\":\"abc\"}]", "decoding"),
            (200, "[{\"market\":\"XYZ\",\"trade_price\":1}]", "decoding"),
            (451, "", "locationRestricted"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let error = await bed.error(status: status, body: body) { try await $0.quote(for: btc) }
        #expect(error?.kind == kind)
        #expect(error?.venue == "upbit")
        #expect(error?.description.contains("\n") == false)
    }

    @Test("a decoding error names the JSON path that failed")
    func decodingPath() async {
        let client = ScriptedHTTPClient(body: "[{\"market\":\"KRW-BTC\",\"trade_price\":{}}]")
        await #expect(
            throws: AggError.decoding(
                venue: "upbit", path: "$[0].trade_price", detail: "expected a number, found an object")
        ) {
            try await bed.adapter(client).quote(for: btc)
        }
    }
}

@Suite("Change basis per venue")
struct UpbitChangeBasisTests {
    @Test("Upbit's signed_change_price is since 00:00 UTC, and the descriptor says so")
    func upbit() async throws {
        let quote = try await bed.adapter(try Fixtures.client("upbit", baseURL: base)).quote(
            for: Market(base: "BTC", quote: "KRW"))
        #expect(quote.changeBasis == .sinceUTCMidnight)
        #expect(UpbitAdapter.descriptor.changeBasis == .sinceUTCMidnight)
    }
}
