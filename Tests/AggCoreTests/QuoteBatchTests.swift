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

/// A client that must never be asked: `QuoteBatch` sends nothing itself.
private struct NoNetwork: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw TransportError.connection(url: request.url, detail: "no network in this test")
    }
}

/// What `QuoteBatch.answer` asked for, in the order the calls arrived.
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
    private func answer(_ markets: [Market], calls: Calls, failing: String? = nil) async -> [Market: QuoteResult] {
        let descriptor = AdapterDescriptor(
            id: "test", displayName: "Test", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: ["KRW", "USDT"],
            capabilities: [.ticker], requestsPerSecond: 1, defaultBaseURL: "https://test.invalid")
        let client = VenueClient(
            descriptor, environment: AdapterEnvironment(baseURL: "https://test.invalid", http: NoNetwork()),
            envelope: .none)
        return await QuoteBatch.answer(
            markets, client: client,
            single: { market async throws(AggError) in
                calls.record("single \(market)")
                if market.quote == failing { throw .http(venue: "test", status: 503, url: "single") }
                return quote(market, 1)
            },
            batch: { currency, markets async throws(AggError) in
                calls.record("batch \(currency) \(markets.map(\.description).joined(separator: ","))")
                if currency == failing { throw .http(venue: "test", status: 503, url: "batch") }
                return BulkAnswer(values: markets.filter { $0 != nope }.map { quote($0, 2) })
            })
    }

    @Test("one market of a quote currency asks the single ticker; several share one batch, per currency")
    func routing() async throws {
        let calls = Calls()
        let results = await answer([btc, eth, nope, btc, btcUSDT, Market(base: "BTC", quote: "EUR")], calls: calls)
        #expect(calls.all == ["batch KRW BTC/KRW,ETH/KRW,NOPE/KRW", "single BTC/USDT"])
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
        #expect(calls.all == ["batch KRW BTC/KRW,ETH/KRW", "batch USDT BTC/USDT,ETH/USDT"])
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
