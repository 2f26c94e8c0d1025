import AggCore
import Foundation
import Synchronization
import Testing

/// The requests a book venue received.
private final class BookRequests: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// A venue with order books, in bulk (`bulk`: a `markets=` list, like Upbit's) or one a request;
/// it has no book for `NONE`, and its bulk answer carries three levels a side whatever is asked.
private struct BookVenue: VenueAdapter {
    let requests: BookRequests
    let bulk: Bool
    var failing = false

    let descriptor = AdapterDescriptor(
        id: "books", displayName: "Books", country: "ZZ", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.orderBook], requestsPerSecond: 1, defaultBaseURL: "https://books.invalid",
        limits: FetchLimits(candles: 1, trades: 1, bookDepth: 2))

    static let levels = [1, 2, 3].map { BookLevel(price: Decimal($0), amount: 1) }

    func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        requests.record("book \(request.market.base) \(request.depth)")
        return OrderBook(
            exchange: "books", market: request.market, timestamp: nil, bids: Self.levels, asks: Self.levels)
    }

    func fetchOrderBooks(_ markets: [Market], depth: Int) async throws(AggError) -> [OrderBook] {
        requests.record("books " + markets.map(\.base).joined(separator: ",") + " \(depth)")
        if failing { throw .http(venue: "books", status: 503, url: "https://books.invalid/orderbook") }
        return markets.filter { $0.base != "NONE" }.map {
            OrderBook(exchange: "books", market: $0, timestamp: nil, bids: Self.levels, asks: Self.levels)
        }
    }

    func orderBooksURL(for markets: [Market], depth: Int) -> String? {
        bulk ? "https://books.invalid/orderbook?markets=" + markets.map(\.base).joined(separator: ",") : nil
    }
}

private let markets = ["BTC", "ETH", "NONE", "BTC"].map { Market(base: $0, quote: "KRW") }

@Suite("VenueAdapter.orderBooks(for:depth:)")
struct OrderBooksEntryTests {
    @Test("a venue with a bulk book request: every market in one request, cut to the depth; one left out is not listed")
    func bulk() async throws {
        let requests = BookRequests()
        let books = await BookVenue(requests: requests, bulk: true).orderBooks(for: markets, depth: 5)
        #expect(requests.all == ["books BTC,ETH,NONE 2"])
        let btc = try books[Market(base: "BTC", quote: "KRW")]?.get()
        #expect(btc?.asks.count == 3)
        let cut = try await BookVenue(requests: requests, bulk: true).orderBooks(for: markets, depth: 1)[
            Market(base: "ETH", quote: "KRW")]?.get()
        #expect(cut?.bids == [BookLevel(price: 1, amount: 1)])
        guard case .failure(let error) = books[Market(base: "NONE", quote: "KRW")] else {
            Issue.record("NONE has a book")
            return
        }
        #expect(error.isNotListed)
        #expect(error.description == "books: NONE/KRW is not listed (no order book for it in the answer)")
    }

    @Test("a failed bulk request is each of its markets' failure")
    func bulkFailure() async {
        let books = await BookVenue(requests: BookRequests(), bulk: true, failing: true).orderBooks(
            for: markets, depth: 2)
        #expect(books.count == 3)
        for (_, book) in books {
            guard case .failure(let error) = book else {
                Issue.record("a book from a failed request")
                continue
            }
            #expect(error.description == "books: HTTP 503 from https://books.invalid/orderbook")
        }
    }

    @Test("a venue without one: one request a market, each market once")
    func oneByOne() async {
        let requests = BookRequests()
        let books = await BookVenue(requests: requests, bulk: false).orderBooks(for: markets, depth: 5)
        #expect(requests.all.sorted() == ["book BTC 2", "book ETH 2", "book NONE 2"])
        #expect(books.count == 3)
    }
}
