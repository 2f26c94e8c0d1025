import AggCore
import AggServices
import Foundation

/// The premium board at a notional (`agg premium --notional 10M --net`), its arithmetic alone:
/// 30 coins on 9 venues (5 local in KRW, 4 global in USDT) with 30-level books, every local
/// venue priced both ways against every global one (1,200 routes), each with both taker fees
/// and a withdrawal fee (a percentage with a minimum from the local venues, fixed from the
/// global ones), as `PremiumNotionalPricer` does for the board.
extension ArbSection {
    static let localVenues = (0..<5).map { "local\($0)" }
    static let globalVenues = (0..<4).map { "global\($0)" }

    /// A 30-level side around `price` as a venue sends it.
    static func levels(_ kind: BookSide.Kind, price: Decimal, seed: Int) -> [BookLevel] {
        side(kind, price: price, seed: seed).levels
    }

    /// The board and the pricer holding every book and transfer row.
    static func notionalBoard() -> (PremiumBoard, PremiumNotionalPricer) {
        var quotes: [Quote] = []
        var books: [String: [String: Result<OrderBook, AggError>]] = [:]
        var transfers: [String: [TransferStatus]] = [:]
        for coin in 0..<30 {
            let base = "C\(coin)"
            let dollars = Decimal(100 + coin * 37)
            for (index, venue) in (localVenues + globalVenues).enumerated() {
                let local = index < localVenues.count
                let price = local ? dollars * 1_400 : dollars
                let market = Market(base: base, quote: local ? "KRW" : "USDT")
                quotes.append(
                    Quote(exchange: venue, market: market, last: price, quoteVolume: price * Decimal(1_000 + coin)))
                books[venue, default: [:]][base] = .success(
                    OrderBook(
                        exchange: venue, market: market, timestamp: nil,
                        bids: levels(.bids, price: price, seed: coin * index),
                        asks: levels(.asks, price: price, seed: coin + index)))
                transfers[venue, default: []].append(
                    TransferStatus(
                        exchange: venue, coin: base, network: base, deposit: .open, withdraw: .open,
                        withdrawal: local
                            ? .percentage(rate: Decimal(1) / 1_000, minimum: Decimal(1) / 100, maximum: 1)
                            : .fixed(Decimal(2) / 100)))
            }
        }
        let fx = RateValue(value: 1_330, source: "bench", asOf: nil)
        let board = PremiumBoard(currency: "KRW", quotes: quotes, fx: fx)
        let rates = Dictionary(
            uniqueKeysWithValues: (localVenues + globalVenues).map { ($0, Decimal(5) / 10_000) })
        let pricer = PremiumNotionalPricer(
            notional: 10_000_000, currency: "KRW", net: true, fx: fx,
            fees: TakerFeeLookup(registry: AdapterRegistry(), overrides: rates), books: books, transfers: transfers)
        return (board, pricer)
    }

    /// The CPU time of pricing the whole board at 10M with --net, median of `runs`.
    static func boardAtNotional(runs: Int) -> (cpu: Double, routes: Int) {
        let (board, pricer) = notionalBoard()
        var routes = 0
        var times: [Double] = []
        for _ in 0..<runs {
            routes = 0
            times.append(
                timed {
                    for row in board.rows {
                        for directions in pricer.price(row).values {
                            routes +=
                                (directions.kimchi?.percent != nil ? 1 : 0)
                                + (directions.reverse?.percent != nil ? 1 : 0)
                        }
                    }
                }.cpu)
        }
        return (median(times), routes)
    }
}
