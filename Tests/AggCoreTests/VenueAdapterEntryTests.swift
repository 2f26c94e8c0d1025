import AggCore
import Foundation
import Synchronization
import Testing

private let btc = Market(base: "BTC", quote: "KRW")

private func time(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

/// The requests a `CarelessVenue` received.
private final class Requests: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// A venue whose primitives answer everything they have, in whatever order: the core must
/// check, clamp, order and trim for it.
private struct CarelessVenue: VenueAdapter {
    let requests: Requests

    let descriptor = AdapterDescriptor(
        id: "careless", displayName: "Careless", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.candles, .trades, .orderBook, .fxRates, .transferStatus, .allTickers], requestsPerSecond: 1,
        defaultBaseURL: "https://careless.invalid",
        limits: FetchLimits(candles: 2, trades: 3, bookDepth: 2, candleIntervals: [.oneMinute, .oneDay]),
        rateBases: ["USD", "JPY"])

    func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        requests.record("candles \(request.market) \(request.interval.rawValue) \(request.count)")
        return [4, 3, 2, 1].map { Candle(time: time($0), open: 1, high: 1, low: 1, close: Decimal($0), volume: 1) }
    }

    func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        requests.record("trades \(request.count)")
        return [1, 2, 3, 4].map { Trade(time: time($0), side: .buy, price: Decimal($0), amount: 1, cost: Decimal($0)) }
    }

    func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        requests.record("book \(request.depth)")
        let levels = [1, 2, 3].map { BookLevel(price: Decimal($0), amount: 1) }
        return OrderBook(exchange: "careless", market: request.market, timestamp: nil, bids: levels, asks: levels)
    }

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        requests.record("rates \(request.base)")
        return RateTable(source: "careless", base: request.base, rates: ["KRW": 1400], asOf: time(1), nextUpdate: nil)
    }

    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        ["BTC", "ETH"].map { TransferStatus(exchange: "careless", coin: $0, deposit: .open, withdraw: .open) }
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        requests.record("tickers \(request.currency)")
        return BulkAnswer(values: [])
    }
}

@Suite("The core's capability mechanics")
struct VenueAdapterEntryTests {
    @Test("an interval the descriptor does not offer is a usage error, before any request")
    func unofferedInterval() async {
        let requests = Requests()
        await #expect(throws: AggError.usage("careless does not offer 5m candles; its intervals: 1m, 24h")) {
            _ = try await CarelessVenue(requests: requests).candles(for: btc, interval: .fiveMinutes, limit: 1)
        }
        #expect(requests.all.isEmpty)
    }

    @Test("candles: the count is clamped to 1...limit, the answer put oldest first and cut to the newest asked")
    func candles() async throws {
        let requests = Requests()
        let venue = CarelessVenue(requests: requests)
        let three = try await venue.candles(for: btc, interval: .oneDay, limit: 3)
        #expect(three.map(\.close) == [2, 3, 4])
        #expect(try await venue.candles(for: btc, interval: .oneMinute, limit: 0).isEmpty)
        #expect(requests.all == ["candles BTC/KRW 24h 2", "candles BTC/KRW 1m 1"])
    }

    @Test("trades: clamped, put newest first and cut to the limit; a negative limit is none")
    func trades() async throws {
        let requests = Requests()
        let venue = CarelessVenue(requests: requests)
        #expect(try await venue.trades(for: btc, limit: 2).map(\.price) == [4, 3])
        #expect(try await venue.trades(for: btc, limit: -1).isEmpty)
        #expect(requests.all == ["trades 2", "trades 1"])
    }

    @Test("order book: clamped, each side cut to the depth; a negative depth is an empty book, not a trap")
    func book() async throws {
        let requests = Requests()
        let venue = CarelessVenue(requests: requests)
        let book = try await venue.orderBook(for: btc, depth: 5)
        #expect(book.bids.count == 3 && book.asks.count == 3)
        let one = try await venue.orderBook(for: btc, depth: 1)
        #expect(one.bids.map(\.price) == [1] && one.asks.map(\.price) == [1])
        let none = try await venue.orderBook(for: btc, depth: -2)
        #expect(none.bids.isEmpty && none.asks.isEmpty)
        #expect(requests.all == ["book 2", "book 1", "book 1"])
    }

    @Test("rates: the base is validated and must be one the source gives rates from, before any request")
    func rates() async throws {
        let requests = Requests()
        let venue = CarelessVenue(requests: requests)
        await #expect(throws: AggError.invalidCurrency("U$D")) { _ = try await venue.rates(base: "U$D") }
        await #expect(
            throws: AggError.usage(
                "careless gives rates to KRW from USD, JPY only, not from EUR; use another FX source for other bases")
        ) { _ = try await venue.rates(base: "eur") }
        #expect(try await venue.rates(base: "usd").base == "USD")
        #expect(requests.all == ["rates USD"])
    }

    @Test("transfer status: the rows of the coins asked for, every row when none is named")
    func transfers() async throws {
        let venue = CarelessVenue(requests: Requests())
        #expect(try await venue.transferStatus(coins: ["ETH", "XRP"]).map(\.coin) == ["ETH"])
        #expect(try await venue.transferStatus(coins: []).map(\.coin) == ["BTC", "ETH"])
    }

    @Test("all tickers of a quote currency the venue does not serve: ALL/<currency> is not listed, no request")
    func unservedCurrency() async throws {
        let requests = Requests()
        let error = await #expect(throws: AggError.self) {
            _ = try await CarelessVenue(requests: requests).allQuotes(quotedIn: "USDT")
        }
        #expect(error?.summary == "ALL/USDT is not listed (agg asks Careless only for markets in KRW)")
        #expect(requests.all.isEmpty)
    }
}
