import AggCore
import AggJSON
import AggTestKit
import Testing

@testable import Bithumb

/// Rule 1 of issue 20 for Bithumb's v1 market list (`/v1/market/all`): one damaged entry is
/// skipped and reported with its path, in the market list and in the all-tickers answer the
/// premium board reads; every other market answers. The classic list's damaged entry is data
/// (`Fixtures/bithumb/bulk-entries.json`, run by AggVenuesTests' `BulkEntryDamageTests`).
@Suite("Bithumb: one bad entry of the market list costs that entry")
struct BithumbBulkEntryTests {
    static let bed = AdapterTestBed(BithumbAdapter.self)
    static let xrp = Market(base: "XRP", quote: "KRW")

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
