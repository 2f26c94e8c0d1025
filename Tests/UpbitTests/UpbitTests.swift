import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing
import Upbit

private let base = "https://api.upbit.com"

private func adapter(_ client: any HTTPClient) -> UpbitAdapter {
    UpbitAdapter(environment: AdapterEnvironment(baseURL: base, http: client))
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text) ?? .nan
}

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
    @Test("the KRW-BTC ticker maps every field exactly; the change rate becomes a percent")
    func ticker() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let quote = try await adapter(client).quote(for: btc)
        #expect(
            quote
                == Quote(
                    exchange: "upbit", market: btc, last: 80_651_000, open: 79_580_000, high: 81_480_000,
                    low: 79_120_000, previousClose: 79_580_000, change: 1_071_000,
                    changePercent: decimal("1.34581553"), changeBasis: .sinceUTCMidnight,
                    baseVolume: decimal("3876.21587312"),
                    quoteVolume: decimal("311604512879.45103"),
                    timestamp: Timestamp(millisecondsSince1970: 1_723_104_735_112)))
        #expect(quote.changePercent?.description == "1.34581553")
        #expect(quote.timestamp?.description == "2024-08-08T08:12:15.112Z")
        #expect(client.requests.map(\.url) == [base + "/v1/ticker?markets=KRW-BTC"])
    }

    @Test(
        "prices in BTC and USDT, negative changes and exponent numbers stay exact",
        arguments: [
            (Market(base: "ETH", quote: "BTC"), "0.04225", "-1.72133054"),
            (Market(base: "BTC", quote: "USDT"), "58500.1", "0.05057248"),
            (Market(base: "ETH", quote: "KRW"), "3407000", "-0.40923707"),
            (Market(base: "USDT", quote: "KRW"), "1373", "-0.21802326"),
        ])
    func otherMarkets(market: Market, last: String, percent: String) async throws {
        let quote = try await adapter(try Fixtures.client("upbit", baseURL: base)).quote(for: market)
        #expect(quote.market == market)
        #expect(quote.last == decimal(last))
        #expect(quote.changePercent == decimal(percent))
    }

    @Test("several markets share one request")
    func batch() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let results = await adapter(client).quotes(for: [btc, eth, btc])
        #expect(client.requests.map(\.url) == [base + "/v1/ticker?markets=KRW-BTC,KRW-ETH"])
        #expect(try results[btc]?.get().last == 80_651_000)
        #expect(try results[eth]?.get().last == 3_407_000)
        #expect(results.count == 2)
    }

    @Test("every KRW ticker in one /v1/ticker/all request, exact; a currency Upbit does not quote asks nothing")
    func allTickers() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let quotes = try await adapter(client).allQuotes(quotedIn: "KRW")
        #expect(client.requests.map(\.url) == [base + "/v1/ticker/all?quote_currencies=KRW"])
        #expect(quotes.count == 153)
        #expect(Set(quotes.map(\.market)).count == 153)
        let byBase = Dictionary(quotes.map { ($0.market.base, $0) }) { first, _ in first }
        #expect(byBase["BTC"]?.last == 80_651_000)
        #expect(byBase["BTC"]?.quoteVolume == decimal("311604512879.45103"))
        #expect(byBase["USDT"]?.last == 1373)
        #expect(byBase["XRP"]?.last == decimal("792.14"))
        #expect(byBase["XRP"]?.changePercent == decimal("1.29667519"))
        await #expect(throws: AggError.self) { try await adapter(client).allQuotes(quotedIn: "EUR") }
        #expect(client.requests.count == 1)
    }

    @Test("one unknown code fails Upbit's batch: the market list sorts it out in two more requests")
    func batchWithUnknownCode() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let results = await adapter(client).quotes(for: [btc, nope, eth])
        #expect(
            client.requests.map(\.url) == [
                base + "/v1/ticker?markets=KRW-BTC,KRW-NOPE,KRW-ETH",
                base + "/v1/market/all",
                base + "/v1/ticker?markets=KRW-BTC,KRW-ETH",
            ])
        #expect(try results[btc]?.get().last == 80_651_000)
        #expect(try results[eth]?.get().last == 3_407_000)
        guard case .failure(let error)? = results[nope] else {
            Issue.record("NOPE should fail")
            return
        }
        #expect(error == .notListed(venue: "upbit", market: nope, code: "404", message: "Code not found"))
    }

    @Test("without the market list, each market of a failed batch is asked for on its own")
    func batchWithoutMarketList() async throws {
        let responder = try FixtureResponder(venue: "upbit", baseURL: base)
        let client = ScriptedHTTPClient { request in
            guard !request.url.hasSuffix("/v1/market/all") else {
                throw TransportError.timeout(url: request.url, seconds: 1)
            }
            return try responder.respond(to: request)
        }
        let results = await adapter(client).quotes(for: [btc, nope])
        #expect(client.requests.count == 4)
        #expect(
            Set(client.requests.dropFirst(2).map(\.url)) == [
                base + "/v1/ticker?markets=KRW-BTC", base + "/v1/ticker?markets=KRW-NOPE",
            ])
        #expect(try results[btc]?.get().last == 80_651_000)
        #expect(results[nope].map { if case .failure(let error) = $0 { error.isNotListed } else { false } } == true)
    }

    @Test("markets in a currency Upbit does not quote fail without a request")
    func unservedInBatch() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: base)
        let usd = Market(base: "BTC", quote: "USD")
        let results = await adapter(client).quotes(for: [usd, btc])
        #expect(client.requests.map(\.url) == [base + "/v1/ticker?markets=KRW-BTC"])
        guard case .failure(let error)? = results[usd] else {
            Issue.record("BTC/USD should fail")
            return
        }
        #expect(error.kind == "notListed")
    }

    @Test("the market list carries Korean and English names")
    func markets() async throws {
        let listings = try await adapter(try Fixtures.client("upbit", baseURL: base)).markets()
        #expect(listings.count == 32)
        #expect(
            listings[0]
                == MarketListing(
                    exchange: "upbit", market: btc, venueSymbol: "KRW-BTC", koreanName: "비트코인",
                    englishName: "Bitcoin"))
        #expect(listings.first { $0.venueSymbol == "KRW-XRP" }?.koreanName == "엑스알피(리플)")
        #expect(listings.contains { $0.market == Market(base: "1INCH", quote: "BTC") })
    }

    /// Rule 1 of issue 20 for market lists: one damaged entry costs only itself.
    @Test("a damaged entry of the market list is left out; the others are listed")
    func damagedListing() async throws {
        let body =
            #"[{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin"},"#
            + #"{"market":"KRW-ETH","korean_name":7},{"market":null},"#
            + #"{"market":"KRW-XRP","korean_name":"엑스알피(리플)","english_name":"XRP"}]"#
        let listings = try await adapter(ScriptedHTTPClient(body: body)).markets()
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
    @Test("an unknown market is not listed, with Upbit's numeric name and message verbatim")
    func unknownMarket() async throws {
        await #expect(throws: AggError.notListed(venue: "upbit", market: nope, code: "404", message: "Code not found"))
        {
            try await adapter(try Fixtures.client("upbit", baseURL: base)).quote(for: nope)
        }
    }

    @Test(
        "error envelopes with a number or a string name become typed errors",
        arguments: [
            (
                "upbit/error_404_code_not_found.json", 404,
                AggError.notListed(venue: "upbit", market: btc, code: "404", message: "Code not found")
            ),
            (
                "upbit/error_400_invalid_parameter.json", 400,
                .venue(venue: "upbit", code: "invalid_parameter", message: "markets parameter is required")
            ),
            ("upbit/error_429_too_many_requests.json", 429, .rateLimited(venue: "upbit", retryAfterSeconds: nil)),
            ("upbit/error_429_too_many_requests.json", 418, .rateLimited(venue: "upbit", retryAfterSeconds: nil)),
            (
                "upbit/error_400_invalid_parameter.json", 200,
                .venue(venue: "upbit", code: "invalid_parameter", message: "markets parameter is required")
            ),
        ])
    func envelopes(file: String, status: Int, expected: AggError) async throws {
        let body = try Fixtures.bytes(file)
        let client = ScriptedHTTPClient { request in
            HTTPResponse(status: status, headers: [], body: body, url: request.url)
        }
        await #expect(throws: expected) {
            try await adapter(client).quote(for: btc)
        }
    }

    @Test("404 counts as not listed; other names do not")
    func notListed() {
        let upbit = UpbitAdapter.descriptor
        #expect(upbit.meansNotListed(.venue(venue: "upbit", code: "404", message: "Code not found")))
        #expect(!upbit.meansNotListed(.venue(venue: "upbit", code: "invalid_parameter", message: "x")))
        #expect(!upbit.meansNotListed(.http(venue: "upbit", status: 404, url: base)))
    }

    @Test(
        "answers of the wrong shape become typed errors naming the venue",
        arguments: [
            (200, "[]", "decoding"),
            (200, "[{\"market\":\"KRW-BTC\",\"trade_price\":\"abc\"}]", "decoding"),
            (200, "[{\"market\":\"XYZ\",\"trade_price\":1}]", "decoding"),
            (451, "", "locationRestricted"),
        ])
    func brokenAnswers(status: Int, body: String, kind: String) async {
        let client = ScriptedHTTPClient(status: status, body: body)
        do {
            _ = try await adapter(client).quote(for: btc)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == kind)
            #expect(error.venue == "upbit")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a decoding error names the JSON path that failed")
    func decodingPath() async {
        let client = ScriptedHTTPClient(body: "[{\"market\":\"KRW-BTC\",\"trade_price\":{}}]")
        await #expect(
            throws: AggError.decoding(
                venue: "upbit", path: "$[0].trade_price", detail: "expected a number, found an object")
        ) {
            try await adapter(client).quote(for: btc)
        }
    }
}

@Suite("Change basis per venue")
struct UpbitChangeBasisTests {
    @Test("Upbit's signed_change_price is since 00:00 UTC, and the descriptor says so")
    func upbit() async throws {
        let quote = try await adapter(try Fixtures.client("upbit", baseURL: base)).quote(
            for: Market(base: "BTC", quote: "KRW"))
        #expect(quote.changeBasis == .sinceUTCMidnight)
        #expect(UpbitAdapter.descriptor.changeBasis == .sinceUTCMidnight)
    }
}
