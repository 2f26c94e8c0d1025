import AggCore
import Foundation
import Synchronization
import Testing

private func quote(_ market: Market, _ last: Decimal) -> Quote {
    Quote(exchange: "test", market: market, last: last)
}

private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")
private let nope = Market(base: "NOPE", quote: "KRW")
private let btcUSDT = Market(base: "BTC", quote: "USDT")
private let ethUSDT = Market(base: "ETH", quote: "USDT")

/// What `VenueAdapter.quotes(for:)` asked for, in the order the calls arrived.
private final class Calls: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 }.sorted() }
}

@Suite("QuoteBatch")
struct QuoteBatchTests {
    @Test("each market gets its quote from the batch answer; one the answer lacks is not listed")
    func results() throws {
        let results = QuoteBatch.results(for: [btc, eth, nope], from: [quote(eth, 2), quote(btc, 1)], venue: "test")
        #expect(results.count == 3)
        #expect(try results[btc]?.get() == quote(btc, 1))
        #expect(try results[eth]?.get() == quote(eth, 2))
        guard case .failure(let error)? = results[nope] else {
            Issue.record("expected NOPE to fail")
            return
        }
        #expect(error == .notListed(venue: "test", market: nope, code: "", message: ""))
    }

    /// Answers every market asked for, recording which way each was asked.
    private func answer(
        _ markets: [Market], calls: Calls, failing: String? = nil, batching: QuoteBatching = .allTickersPerQuote
    ) async -> [Market: QuoteResult] {
        await BatchVenue(calls: calls, failing: failing, batching: batching).quotes(for: markets)
    }

    @Test("one market of a quote currency asks the single ticker; several share one batch, per currency")
    func routing() async throws {
        let calls = Calls()
        let results = await answer([btc, eth, nope, btc, btcUSDT, Market(base: "BTC", quote: "EUR")], calls: calls)
        #expect(calls.all == ["batch KRW", "single BTC/USDT"])
        #expect(results.count == 5)
        #expect(try results[btc]?.get().last == 2)
        #expect(try results[btcUSDT]?.get().last == 1)
        guard case .failure(let unlisted)? = results[nope],
            case .failure(let unserved)? = results[Market(base: "BTC", quote: "EUR")]
        else {
            Issue.record("expected NOPE/KRW and BTC/EUR to fail")
            return
        }
        #expect(unlisted == .notListed(venue: "test", market: nope, code: "", message: ""))
        #expect(unserved.summaryNamingNoMarket == "not listed (agg asks Test only for markets in KRW, USDT)")
    }

    @Test("a failed batch fails its markets only; the other currency still answers")
    func failure() async throws {
        let calls = Calls()
        let results = await answer([btc, eth, btcUSDT, ethUSDT], calls: calls, failing: "KRW")
        #expect(calls.all == ["batch KRW", "batch USDT"])
        #expect(results[btc].map { if case .failure(.http) = $0 { true } else { false } } == true)
        #expect(results[eth].map { if case .failure(.http) = $0 { true } else { false } } == true)
        #expect(try results[ethUSDT]?.get().last == 2)
    }

    @Test("nothing asked, nothing answered, no call")
    func empty() async {
        let calls = Calls()
        #expect(await answer([], calls: calls).isEmpty)
        #expect(calls.all.isEmpty)
    }
}

/// A venue whose tickers come from the calls it records: `quote(for:)` answers 1, a batch 2;
/// NOPE is in no batch answer, and a `symbolList` request naming NOPE fails as Upbit's does.
private struct BatchVenue: VenueAdapter {
    let calls: Calls
    let failing: String?
    let descriptor: AdapterDescriptor

    init(calls: Calls, failing: String?, batching: QuoteBatching) {
        self.calls = calls
        self.failing = failing
        descriptor = AdapterDescriptor(
            id: "test", displayName: "Test", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: ["KRW", "USDT"],
            capabilities: [.ticker, .allTickers, .markets], requestsPerSecond: 1,
            defaultBaseURL: "https://test.invalid", notListedCodes: ["404"], batching: batching)
    }

    func quote(for market: Market) async throws(AggError) -> Quote {
        calls.record("single \(market)")
        if market.quote == failing { throw .http(venue: "test", status: 503, url: "single") }
        return quote(market, 1)
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        calls.record("batch \(request.currency)")
        if request.currency == failing { throw .http(venue: "test", status: 503, url: "batch") }
        return BulkAnswer(
            values: [btc, eth, btcUSDT, ethUSDT].filter { $0.quote == request.currency }.map { quote($0, 2) })
    }

    func fetchQuotes(_ markets: [Market]) async throws(AggError) -> BulkAnswer<Quote> {
        calls.record("named \(markets.map(\.description).joined(separator: ","))")
        if markets.contains(nope) { throw .venue(venue: "test", code: "404", message: "Code not found") }
        return BulkAnswer(values: markets.map { quote($0, 2) })
    }

    func quotesURL(for markets: [Market]) -> String {
        "https://test.invalid/ticker?markets=" + markets.map(\.description).joined(separator: ",")
    }

    func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        calls.record("markets")
        return BulkAnswer(
            values: [btc, eth, btcUSDT].map { MarketListing(exchange: "test", market: $0, venueSymbol: "\($0)") })
    }

    private func quote(_ market: Market, _ last: Decimal) -> Quote {
        Quote(exchange: "test", market: market, last: last)
    }
}

@Suite("Quote batching, as the descriptor says")
struct QuoteBatchingTests {
    @Test("symbolList names every market in one request, whatever its quote currency")
    func symbolList() async throws {
        let calls = Calls()
        let results = await BatchVenue(calls: calls, failing: nil, batching: .symbolList(max: nil))
            .quotes(for: [btc, btcUSDT, eth, btc])
        #expect(calls.all == ["named BTC/KRW,BTC/USDT,ETH/KRW"])
        #expect(try results[btcUSDT]?.get().last == 2)
        #expect(results.count == 3)
    }

    @Test("symbolList cuts batches at the descriptor's maximum count")
    func symbolListMaximum() async {
        let calls = Calls()
        _ = await BatchVenue(calls: calls, failing: nil, batching: .symbolList(max: 2)).quotes(for: [btc, eth, btcUSDT])
        #expect(calls.all == ["named BTC/KRW,ETH/KRW", "named BTC/USDT"])
    }

    @Test("a symbolList request failed for one unknown market: the list names it, the rest are asked again")
    func symbolListRetry() async throws {
        let calls = Calls()
        let results = await BatchVenue(calls: calls, failing: nil, batching: .symbolList(max: nil))
            .quotes(for: [btc, nope, eth])
        #expect(calls.all == ["markets", "named BTC/KRW,ETH/KRW", "named BTC/KRW,NOPE/KRW,ETH/KRW"])
        #expect(try results[eth]?.get().last == 2)
        guard case .failure(let unlisted)? = results[nope] else {
            Issue.record("expected NOPE/KRW to fail")
            return
        }
        #expect(unlisted == .notListed(venue: "test", market: nope, code: "404", message: "Code not found"))
    }

    @Test("one market alone asks the single ticker, whatever the batching")
    func one() async throws {
        for batching in [QuoteBatching.single, .allTickersPerQuote, .symbolList(max: nil)] {
            let calls = Calls()
            let results = await BatchVenue(calls: calls, failing: nil, batching: batching).quotes(for: [eth, eth])
            #expect(calls.all == ["single ETH/KRW"])
            #expect(try results[eth]?.get().last == 1)
        }
    }
}

@Suite("PriceChange")
struct PriceChangeTests {
    @Test(
        "the change is exact and the percent rounded half away from zero to four decimals",
        arguments: [
            ("79980000", "80640000", "660000", Optional("0.8252")),
            ("58801.2", "58415.3", "-385.9", "-0.6563"),
            ("3", "4", "1", "33.3333"),
            ("3", "2", "-1", "-33.3333"),
            ("8", "9", "1", "12.5"),
            ("16", "17", "1", "6.25"),
            ("160000", "160001", "1", "0.0006"),
            ("20000", "20000.01", "0.01", "0.0001"),
            ("20000", "19999.99", "-0.01", "-0.0001"),
            ("0.00001", "0.00001", "0", "0"),
            ("0", "1", "1", nil),
        ])
    func derived(reference: String, last: String, change: String, percent: String?) throws {
        let value = try #require(PriceChange.from(Decimal(string: reference), to: Decimal(string: last) ?? 0))
        #expect(value.change == Decimal(string: change))
        #expect(value.percent == percent.flatMap { Decimal(string: $0) })
    }

    @Test("no reference, no change")
    func noReference() {
        #expect(PriceChange.from(nil, to: 1) == nil)
    }
}
