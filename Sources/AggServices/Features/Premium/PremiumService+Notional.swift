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
            let table = venues.first { $0.id == row.exchange }?.withdrawalFees
            byVenue[row.exchange, default: []].append(
                TransferStatusService.priced(row, table: table, overrides: ask.withdrawalOverrides[row.exchange]))
        }
        // A venue without transfer status but with a shipped table: the table's networks, priced.
        for venue in venues where !venue.supports(.transferStatus) {
            guard let table = venue.withdrawalFees else { continue }
            for row in rows {
                byVenue[venue.id, default: []] += table.rows(coin: row.base, exchange: venue.id).map {
                    TransferStatusService.priced($0, table: table, overrides: ask.withdrawalOverrides[venue.id])
                }
            }
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
                let depth = ask.venue.limits.bookDepth
                let bulk = ask.markets.count > 1 && adapter.orderBooksURL(for: ask.markets, depth: depth) != nil
                let allowed = bulk ? ask.markets.count : Self.bookBudget(ask.venue)
                let answered = await adapter.orderBooks(for: Array(ask.markets.prefix(allowed)), depth: depth)
                for (market, book) in answered { books[market.base] = book }
                for market in ask.markets.dropFirst(allowed) {
                    books[market.base] = .failure(
                        .usage(
                            "\(ask.venue.id)'s \(market) book not asked: its rate limit "
                                + "(\(RateText.format(ask.venue.requestsPerSecond)) a second) allows "
                                + "\(allowed) books within \(RateText.format(Self.bookSeconds)) s"))
                }
            case .failure(let error):
                for market in ask.markets { books[market.base] = .failure(error) }
            }
            return VenueBooks(venue: ask.venue.id, books: books)
        }
        var books: [String: [String: Swift.Result<OrderBook, AggError>]] = [:]
        for answer in answers { books[answer.venue] = answer.books }
        return books
    }

    /// How long the board's books may take on a venue that is asked one market a request: a
    /// venue whose rate limit allows fewer requests in that time gets its top coins' books only
    /// (Kraken, one request a second, two), so that the board stays within every venue's limit
    /// and answers in about this time.
    static let bookSeconds: Double = 2

    /// The books a venue asked one market a request can give within `bookSeconds` (at least one).
    static func bookBudget(_ venue: AdapterDescriptor) -> Int {
        max(1, Int((venue.requestsPerSecond * bookSeconds).rounded(.down)))
    }

    /// A venue and the markets asked of it.
    struct VenueAsk: Sendable {
        var venue: AdapterDescriptor
        var markets: [Market]
    }
}
