import AggCore
import AggOptions
import FoundationEssentials

extension PremiumService {
    /// `--notional` (and `--net`): what the board prices at a size, and with which fees.
    package struct NotionalAsk: Sendable {
        /// The order size, in the board's currency.
        var amount: Decimal
        var net: Bool
        /// The coins priced: the first `top` by volume among those the board shows.
        var top: Int
        var symbols: [String]
        var minimumVolume: Decimal?
        var fees: TakerFeeLookup
        /// The config file's withdrawal fees by venue id (they win, as in `agg status` and `agg arb`).
        var withdrawalOverrides: [String: VenueFeeOverrides]

        /// The priced coins when `--top` is not given.
        static let defaultTop = 30

        package init(
            amount: Decimal, net: Bool, top: Int, symbols: [String], minimumVolume: Decimal?, fees: TakerFeeLookup,
            withdrawalOverrides: [String: VenueFeeOverrides]
        ) {
            self.amount = amount
            self.net = net
            self.top = top
            self.symbols = symbols
            self.minimumVolume = minimumVolume
            self.fees = fees
            self.withdrawalOverrides = withdrawalOverrides
        }

        /// The board's rows to price: the `top` with the most local volume among the symbols
        /// asked (all without) and above the volume floor.
        func rows(of board: PremiumBoard) -> [PremiumBoard.Row] {
            PremiumRendering.select(
                board, order: .volume, basis: .fx, symbols: symbols, minimumVolume: minimumVolume, top: top,
                favorites: [])
        }
    }

    /// One venue's books of the priced coins, by coin.
    struct VenueBooks: Sendable {
        var venue: String
        var books: [String: Swift.Result<OrderBook, AggError>]
    }

    /// The board at `ask`'s notional: the priced rows' books asked from every venue of the board
    /// that has order books, all venues at once, each in as few requests as it allows (one for
    /// Upbit's `markets=` list; one a market elsewhere, spaced by the venue's token bucket).
    func atNotional(_ ask: NotionalAsk, board: PremiumBoard, venues: [AdapterDescriptor], transfers: [TransferStatus])
        async -> PremiumAtNotional
    {
        let rows = ask.rows(of: board)
        let books = await Self.books(for: rows, venues: venues, factory: factory)
        var byVenue: [String: [TransferStatus]] = [:]
        for row in transfers {
            byVenue[row.exchange, default: []].append(
                TransferStatusService.overridden(row, by: ask.withdrawalOverrides[row.exchange]))
        }
        let pricer = PremiumNotionalPricer(
            notional: ask.amount, currency: board.currency, net: ask.net, fx: board.fx, fees: ask.fees,
            books: books, transfers: byVenue)
        var prices: [String: [String: PremiumAtNotional.Directions]] = [:]
        for row in rows { prices[row.base] = pricer.price(row) }
        return PremiumAtNotional(
            notional: ask.amount, currency: board.currency, net: ask.net, top: ask.top, prices: prices)
    }

    /// The books of `rows`' markets on each of `venues` that has order books, by venue id and
    /// coin.
    static func books(for rows: [PremiumBoard.Row], venues: [AdapterDescriptor], factory: AdapterFactory) async
        -> [String: [String: Swift.Result<OrderBook, AggError>]]
    {
        let asked: [(AdapterDescriptor, [Market])] = venues.filter { $0.supports(.orderBook) }.compactMap { venue in
            let markets = rows.compactMap { row in row.venues.first { $0.exchange == venue.id }?.market }
            return markets.isEmpty ? nil : (venue, markets)
        }
        let answers = await concurrentMap(asked.map { VenueAsk(venue: $0.0, markets: $0.1) }) { ask in
            let adapter = Swift.Result<any VenueAdapter, AggError>.init { () throws(AggError) in
                try factory.adapter(id: ask.venue.id)
            }
            var books: [String: Swift.Result<OrderBook, AggError>] = [:]
            switch adapter {
            case .success(let adapter):
                let answered = await adapter.orderBooks(for: ask.markets, depth: ask.venue.limits.bookDepth)
                for (market, book) in answered { books[market.base] = book }
            case .failure(let error):
                for market in ask.markets { books[market.base] = .failure(error) }
            }
            return VenueBooks(venue: ask.venue.id, books: books)
        }
        var books: [String: [String: Swift.Result<OrderBook, AggError>]] = [:]
        for answer in answers { books[answer.venue] = answer.books }
        return books
    }

    /// A venue and the markets asked of it.
    struct VenueAsk: Sendable {
        var venue: AdapterDescriptor
        var markets: [Market]
    }
}
