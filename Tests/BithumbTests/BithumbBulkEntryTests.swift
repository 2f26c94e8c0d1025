import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Bithumb

/// Rule 1 of issue 20 for Bithumb's market lists: the classic API lists its markets through the
/// ALL tickers, and v1 through `/v1/market/all`. One damaged entry of either is skipped and
/// reported with its market and JSON path, in the market list (`agg search`, `agg exchanges`)
/// and in the all-tickers answer the premium board reads; every other market answers.
@Suite("Bithumb: one bad entry of the market list costs that entry")
struct BithumbBulkEntryTests {
    static let bed = AdapterTestBed(BithumbAdapter.self)
    static let xrp = Market(base: "XRP", quote: "KRW")

    @Test("classic: a damaged ALL entry is listed as skipped; the 479 other coins are listed with their prices")
    func classic() async throws {
        let file = "bithumb/ticker_ALL_KRW.json"
        let whole = await Self.bed.adapter(ScriptedHTTPClient(body: try JSONDamage.recorded(file)))
            .marketList(quotedIn: "KRW")
        #expect(whole.listings.count == 480 && whole.skipped == [] && whole.failures == [])
        #expect(
            whole.listings.first { $0.market == Self.xrp }
                == MarketListing(exchange: "bithumb", market: Self.xrp, venueSymbol: "XRP_KRW", last: decimal("790.4")))
        let body = try JSONDamage.recorded(file, at: [.key("data"), .key("XRP"), .key("closing_price")], with: "1,234")
        let list = await Self.bed.adapter(ScriptedHTTPClient(body: body)).marketList(quotedIn: "KRW")
        #expect(list.failures == [])
        #expect(list.listings == whole.listings.filter { $0.market != Self.xrp })
        #expect(
            list.skipped == [
                SkippedEntry(
                    venue: "bithumb", entry: "XRP", market: Self.xrp, path: "$.data.XRP.closing_price",
                    reason: "'1,234' is not a decimal number")
            ])
    }

    @Test("v1: a damaged entry of /v1/market/all is skipped in the list and in the all tickers; the others answer")
    func v1() async throws {
        let list = try JSONDamage.recorded(
            "bithumb/v1_market_all.json", at: [.index(2), .key("market")], with: "KRW-X\"RP")
        let tickers = try Fixtures.bytes("bithumb/v1_ticker_KRW-BTC_KRW-ETH.json")
        let client = ScriptedHTTPClient { request in
            HTTPResponse(
                status: 200, headers: [], body: request.url.contains("/v1/market/all") ? Array(list.utf8) : tickers,
                url: request.url)
        }
        let adapter = BithumbAdapter(
            environment: AdapterEnvironment(baseURL: Self.bed.baseURL, http: client, settings: ["api": "v1"]))
        let skipped = [
            SkippedEntry(
                venue: "bithumb", entry: "KRW-X\"RP", market: nil, path: "$[2].market",
                reason: "unknown market code 'KRW-X\"RP'")
        ]
        let answer = try await adapter.allQuotesAnswer(quotedIn: "KRW")
        #expect(answer.values.map(\.market) == [Market(base: "BTC", quote: "KRW"), Market(base: "ETH", quote: "KRW")])
        #expect(answer.skipped == skipped)
        let markets = await adapter.marketList(quotedIn: "KRW")
        #expect(
            markets.listings.map(\.market) == [Market(base: "BTC", quote: "KRW"), Market(base: "ETH", quote: "KRW")])
        #expect(markets.skipped == skipped && markets.failures == [])
    }
}
