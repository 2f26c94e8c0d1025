import AggCore
import FoundationEssentials

/// The premium board at a notional (`agg premium --notional 10M [--net]`): each local venue of
/// the priced coins walked both ways at that size against the global venues' books.
///
/// - **kimchi**: buy on a global venue's asks, sell on the local venue's bids;
/// - **reverse**: buy on the local venue's asks, sell on a global venue's bids.
///
/// Each route is `agg arb`'s (`ArbPlanner`, `ArbitrageInputs`) with the board's FX rate, so that
/// the board and `agg arb` give the same number for the same route and notional. Without
/// `--net` no fee is charged: the percent is the premium of the books' average prices at that
/// size; with `--net` it is `agg arb`'s net premium (both taker fees, the withdrawal fee of the
/// cheapest usable network). Of the global venues, the one giving the highest percent is shown.
package struct PremiumAtNotional: Sendable, Equatable {
    /// One direction of one local venue priced at the notional.
    package struct Route: Sendable, Equatable {
        /// The global venue of the route: bought on (kimchi) or sold on (reverse).
        package var global: String
        /// The premium at the notional (net with `--net`): the route's gain in percent of what
        /// it cost, two decimals; `nil` when the route cannot be priced (`problem` says why).
        package var percent: Decimal?
        /// What the books filled, in the board's currency: the notional, or less when they
        /// cannot carry it (`depthLimited`).
        package var filled: Decimal?
        package var depthLimited: Bool
        /// Why there is no percent, in one line.
        package var problem: String?
    }

    /// A local venue's two directions; `nil` when no global venue has a book for the coin.
    package struct Directions: Sendable, Equatable {
        package var kimchi: Route?
        package var reverse: Route?
    }

    /// The order size, in the board's currency.
    package var notional: Decimal
    package var currency: String
    /// Whether fees and the transfer are subtracted.
    package var net: Bool
    /// How many coins were priced at most (the top by volume).
    package var top: Int
    /// By coin, then by local venue id. A coin missing here keeps its `last` only.
    package var prices: [String: [String: Directions]]

    /// The directions of `exchange`'s price of `coin`; `nil` when the coin was not priced.
    package func directions(coin: String, exchange: String) -> Directions? {
        prices[coin]?[exchange]
    }
}

/// Prices the board's rows at a notional from books and transfer status already fetched.
package struct PremiumNotionalPricer: Sendable {
    /// The order size, in `currency` (the board's).
    var notional: Decimal
    var currency: String
    var net: Bool
    /// USD→`currency`, the board's.
    var fx: RateValue
    var fees: TakerFeeLookup
    /// By venue id, then by coin.
    var books: [String: [String: Result<OrderBook, AggError>]]
    /// By venue id: its transfer status rows, with the config file's withdrawal fees applied.
    var transfers: [String: [TransferStatus]]

    package init(
        notional: Decimal, currency: String, net: Bool, fx: RateValue, fees: TakerFeeLookup,
        books: [String: [String: Result<OrderBook, AggError>]], transfers: [String: [TransferStatus]]
    ) {
        self.notional = notional
        self.currency = currency
        self.net = net
        self.fx = fx
        self.fees = fees
        self.books = books
        self.transfers = transfers
    }

    /// Every local venue of `row`, both ways, against each global venue with a book for the
    /// coin (outliers left out: most likely another coin).
    package func price(_ row: PremiumBoard.Row) -> [String: PremiumAtNotional.Directions] {
        let globals = row.venues.filter { !$0.isLocal && !$0.isOutlier && books[$0.exchange]?[row.base] != nil }
        let locals = row.venues.filter { $0.isLocal && books[$0.exchange]?[row.base] != nil }
        // Each book made walkable once, not once for each of the up to eight routes it is in.
        var sides: [String: (asks: BookSide?, bids: BookSide?)] = [:]
        for venue in globals + locals {
            if let book = books[venue.exchange]?[row.base] { sides[venue.exchange] = ArbPlanner.walkableSides(book) }
        }
        // The transfer rows of this coin alone, filtered once for the row, not once a route.
        var pricer = self
        pricer.transfers = transfers.mapValues { rows in rows.filter { $0.coin == row.base } }
        // The notional and the rate by pair of currencies: the same for every route between them.
        var converted: [String: ArbPlanner.ConvertedNotional?] = [:]
        func route(buy: PremiumBoard.VenuePrice, sell: PremiumBoard.VenuePrice, global: String)
            -> PremiumAtNotional.Route
        {
            let pair = buy.market.quote + "/" + sell.market.quote
            if converted[pair] == nil {
                converted[pair] = pricer.planner(coin: row.base, buy: buy, sell: sell).convertedNotional()
            }
            return pricer.route(
                coin: row.base, buy: buy, sell: sell, global: global, asks: sides[buy.exchange]?.asks,
                bids: sides[sell.exchange]?.bids, converted: converted[pair] ?? nil)
        }
        var directions: [String: PremiumAtNotional.Directions] = [:]
        for local in locals {
            directions[local.exchange] = PremiumAtNotional.Directions(
                kimchi: Self.best(globals.map { route(buy: $0, sell: local, global: $0.exchange) }),
                reverse: Self.best(globals.map { route(buy: local, sell: $0, global: $0.exchange) }))
        }
        return directions
    }

    /// The route with the highest percent; when none has one, the first (its problem said).
    static func best(_ routes: [PremiumAtNotional.Route]) -> PremiumAtNotional.Route? {
        let priced = routes.filter { $0.percent != nil }
        return priced.max { ($0.percent ?? 0, $1.global) < ($1.percent ?? 0, $0.global) } ?? routes.first
    }

    /// `agg arb`'s planner for buying `coin` on `buy` and selling it on `sell` at the notional,
    /// at the board's FX rate.
    func planner(coin: String, buy: PremiumBoard.VenuePrice, sell: PremiumBoard.VenuePrice) -> ArbPlanner {
        func leg(_ venue: PremiumBoard.VenuePrice) -> ArbLeg {
            ArbLeg(
                exchange: venue.exchange, market: venue.market, asOf: nil,
                fee: fees.taker(venue: venue.exchange, quotedIn: venue.market.quote))
        }
        func book(_ venue: PremiumBoard.VenuePrice) -> Result<OrderBook, AggError> {
            books[venue.exchange]?[coin]
                ?? .failure(.unsupported(venue: venue.exchange, capability: .orderBook))
        }
        func rows(_ venue: PremiumBoard.VenuePrice) -> [TransferStatus] {
            (transfers[venue.exchange] ?? []).filter { $0.coin == coin }
        }
        return ArbPlanner(
            coin: coin, notional: notional, currency: currency, buy: leg(buy), sell: leg(sell), buyBook: book(buy),
            sellBook: book(sell), source: rows(buy), destination: rows(sell), values: [.fx(currency): fx])
    }

    /// One route priced: gross (no fee, no transfer) or, with `net`, `agg arb`'s report. `asks`
    /// and `bids`, when given, are the two books' sides already made walkable
    /// (`ArbPlanner.walkableSides`): the route is then priced from the walks alone, and the
    /// whole report is built only for a route that has no percent, to say why.
    func route(
        coin: String, buy: PremiumBoard.VenuePrice, sell: PremiumBoard.VenuePrice, global: String,
        asks: BookSide? = nil, bids: BookSide? = nil, converted: ArbPlanner.ConvertedNotional? = nil
    ) -> PremiumAtNotional.Route {
        let planner = planner(coin: coin, buy: buy, sell: sell)
        let conversions = ArbPlanner.conversions(
            currency: currency, buyQuote: buy.market.quote, sellQuote: sell.market.quote)
        if net {
            if let asks, let bids, let route = planner.pricedRoute(asks: asks, bids: bids, converted: converted),
                let percent = route.netPercent
            {
                return PremiumAtNotional.Route(
                    global: global, percent: DecimalRounding.rounded(percent, places: 2),
                    filled: filled(route, planner: planner, back: conversions.back), depthLimited: route.depthLimited,
                    problem: nil)
            }
            let report = planner.report(breakEven: false)
            guard let route = report.route, let percent = report.netPercent else {
                return PremiumAtNotional.Route(
                    global: global, percent: nil, filled: nil, depthLimited: false,
                    problem: report.problems.first?.message ?? "the route cannot be priced")
            }
            return PremiumAtNotional.Route(
                global: global, percent: percent, filled: filled(route, planner: planner, back: conversions.back),
                depthLimited: route.depthLimited, problem: nil)
        }
        let gross = planner.grossRoute(asks: asks, bids: bids)
        guard let route = gross.route, let percent = route.netPercent else {
            return PremiumAtNotional.Route(
                global: global, percent: nil, filled: nil, depthLimited: false,
                problem: gross.problem ?? "the books fill nothing")
        }
        return PremiumAtNotional.Route(
            global: global, percent: DecimalRounding.rounded(percent, places: 2),
            filled: filled(route, planner: planner, back: conversions.back), depthLimited: route.depthLimited,
            problem: nil)
    }

    /// What the route bought, in the board's currency: the notional when the books carry it
    /// all, else the buy's value converted back (to `Conversion.quotientScale` decimals).
    func filled(_ route: ArbitrageRoute, planner: ArbPlanner, back: Conversion) -> Decimal? {
        guard route.depthLimited else { return notional }
        return planner.convert(route.buy.value, back).map {
            DecimalRounding.rounded($0, places: Conversion.quotientScale)
        }
    }
}

extension ArbPlanner {
    /// A route walked before any fee, or why there is none.
    struct GrossRoute: Sendable {
        var route: ArbitrageRoute?
        var problem: String?
    }

    /// The route at the notional with no taker fee and nothing lost in the transfer: both books
    /// made walkable and the notional converted exactly as `report()` does (crossed or empty
    /// books refused). Its `netPercent` is the premium of the two average prices at that size.
    /// `asks` and `bids`, when both are given, are the books' sides already made walkable
    /// (`walkableSides`).
    func grossRoute(asks walkableAsks: BookSide? = nil, bids walkableBids: BookSide? = nil) -> GrossRoute {
        var report = blankReport()
        let given = walkableAsks != nil && walkableBids != nil
        let asks = given ? walkableAsks : side(buyBook, leg: buy, kind: .asks, report: &report)
        let bids = given ? walkableBids : side(sellBook, leg: sell, kind: .bids, report: &report)
        let conversions = Self.conversions(currency: currency, buyQuote: buy.market.quote, sellQuote: sell.market.quote)
        guard let asks, let bids else { return GrossRoute(route: nil, problem: report.problems.first?.message) }
        guard let notionalInBuy = convert(notional, conversions.notional), let rate = convert(1, conversions.rate)
        else {
            return GrossRoute(
                route: nil, problem: "cannot convert \(currency) to \(buy.market.quote) or \(sell.market.quote)")
        }
        let inputs = ArbitrageInputs(
            asks: asks, bids: bids, buyFee: TakerFee(rate: 0), sellFee: TakerFee(rate: 0), withdrawal: .fixed(0),
            rate: rate)
        return GrossRoute(route: inputs.route(notional: notionalInBuy), problem: nil)
    }
}
