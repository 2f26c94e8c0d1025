import AggCore
import FoundationEssentials

/// Turns what `agg arb` fetched into its report, without asking anything: the books made
/// walkable (crossed ones refused), the taker fees, the conversions, the network chosen, and
/// the route and break-even priced exactly (`ArbitrageInputs`).
package struct ArbPlanner: Sendable {
    package var coin: String
    /// The notional in `currency`.
    package var notional: Decimal
    package var currency: String
    package var buy: ArbLeg
    package var sell: ArbLeg
    package var buyBook: Result<OrderBook, AggError>
    package var sellBook: Result<OrderBook, AggError>
    /// The buying venue's transfer status rows for the coin (it withdraws).
    package var source: [TransferStatus]
    /// The selling venue's rows (it takes the deposit).
    package var destination: [TransferStatus]
    /// The rate inputs had, and why the others could not be.
    package var values: [RateInput: RateValue]
    package var unavailable: [RateInput: String]

    package init(
        coin: String, notional: Decimal, currency: String, buy: ArbLeg, sell: ArbLeg,
        buyBook: Result<OrderBook, AggError>, sellBook: Result<OrderBook, AggError>, source: [TransferStatus],
        destination: [TransferStatus], values: [RateInput: RateValue] = [:], unavailable: [RateInput: String] = [:]
    ) {
        self.coin = coin
        self.notional = notional
        self.currency = currency
        self.buy = buy
        self.sell = sell
        self.buyBook = buyBook
        self.sellBook = sellBook
        self.source = source
        self.destination = destination
        self.values = values
        self.unavailable = unavailable
    }

    /// The conversions the route needs: the notional into the buying currency, the selling
    /// currency into the buying one, and the buying currency back into the notional's. USDT and
    /// USDC count as US dollars.
    static func conversions(currency: String, buyQuote: String, sellQuote: String)
        -> (notional: Conversion, rate: Conversion, back: Conversion)
    {
        (
            Conversion(from: currency, to: buyQuote, stablecoins: .assume),
            Conversion(from: sellQuote, to: buyQuote, stablecoins: .assume),
            Conversion(from: buyQuote, to: currency, stablecoins: .assume)
        )
    }

    /// Every rate input the conversions read.
    static func inputs(currency: String, buyQuote: String, sellQuote: String) -> Set<RateInput> {
        let all = conversions(currency: currency, buyQuote: buyQuote, sellQuote: sellQuote)
        return all.notional.inputs.union(all.rate.inputs).union(all.back.inputs)
    }

    /// The report before either leg is walked: the request's fields, nothing priced.
    func blankReport() -> ArbReport {
        ArbReport(
            coin: coin, notional: notional, currency: currency, buy: buy, sell: sell, transfer: nil, buyFill: nil,
            buyFeeAmount: nil, route: nil, rate: nil, rates: [], net: nil, netPercent: nil, breakEvenNotional: nil,
            problems: [], warnings: [])
    }

    /// The report; without `breakEven` its `breakEvenNotional` is left `nil` (the premium board
    /// prices hundreds of routes and shows no break-even: solving it walks the books once per
    /// piece of the net).
    package func report(breakEven: Bool = true) -> ArbReport {
        var report = blankReport()
        let asks = side(buyBook, leg: buy, kind: .asks, report: &report)
        let bids = side(sellBook, leg: sell, kind: .bids, report: &report)
        for leg in [buy, sell] where leg.fee == nil {
            report.problems.append(
                ArbProblem(
                    "takerFee", exchange: leg.exchange,
                    "no taker fee is known for \(leg.exchange) \(leg.market); set venueSettings.\(leg.exchange).takerFee"
                ))
        }
        let conversions = Self.conversions(
            currency: currency, buyQuote: buy.market.quote, sellQuote: sell.market.quote)
        let used = conversions.notional.inputs.union(conversions.rate.inputs).union(conversions.back.inputs)
        report.rates = used.sorted().compactMap { values[$0] }
        for conversion in [conversions.notional, conversions.rate] {
            for problem in conversion.problems(in: values) where !report.problems.contains(where: { $0.kind == "fx" }) {
                var text = "cannot convert \(conversion.from) to \(conversion.to): \(problem)"
                if case .missing(let input) = problem, let reason = unavailable[input] { text += " (\(reason))" }
                report.problems.append(ArbProblem("fx", text))
            }
        }
        let notionalInBuy = convert(notional, conversions.notional)
        report.rate = convert(1, conversions.rate)

        // The buy alone, whatever happens to the rest.
        if let asks, let fee = buy.fee?.fee, let notionalInBuy {
            let fill = asks.fill(value: notionalInBuy)
            report.buyFill = fill
            report.buyFeeAmount = fee.buyCharge == .quoteCurrency ? fill.value * fee.rate : fill.amount * fee.rate
        }

        let candidates = TransferCandidate.candidates(coin: coin, source: source, destination: destination)
        guard let usable = chooseNetwork(candidates, report: &report) else { return report }
        guard let asks, let bids, let buyFee = buy.fee?.fee, let sellFee = sell.fee?.fee, let notionalInBuy,
            let rate = report.rate, report.problems.isEmpty
        else {
            report.transfer = usable.first
            return report
        }
        let priced = Self.cheapest(
            usable, asks: asks, bids: bids, buyFee: buyFee, sellFee: sellFee, rate: rate, notional: notionalInBuy)
        guard let best = priced else {
            report.transfer = usable.first
            report.problems.append(
                ArbProblem(
                    "unknownFee", exchange: buy.exchange,
                    "the withdrawal fee of \(coin) on \(buy.exchange) (\(usable.map(\.network).joined(separator: ", "))) "
                        + "is unknown: no net without it"))
            return report
        }
        report.transfer = best.0
        report.route = best.2
        report.net = convert(best.2.net, conversions.back).map {
            DecimalRounding.rounded($0, places: Conversion.quotientScale)
        }
        report.netPercent = best.2.netPercent.map { DecimalRounding.rounded($0, places: 2) }
        if breakEven {
            report.breakEvenNotional = best.1.breakEvenNotional().flatMap { convert($0, conversions.back) }
                .map { DecimalRounding.rounded($0, places: Conversion.quotientScale) }
        }
        if best.2.depthLimited {
            let filled = convert(best.2.buy.value, conversions.back) ?? best.2.buy.value
            report.warnings.append(
                ArbProblem(
                    "depth",
                    "the books fill \(DecimalFormatting.grouped(DecimalRounding.rounded(filled, places: 2))) of "
                        + "\(DecimalFormatting.grouped(notional)) \(currency): the route is priced at that size"))
        }
        return report
    }

    /// The route on each usable network whose withdrawal fee is known, at `notional` (in the
    /// buying currency), and the one that leaves the most (`worse`): the fee of a percentage
    /// network depends on the size. `nil` when no network's fee is known.
    static func cheapest(
        _ usable: [TransferCandidate], asks: BookSide, bids: BookSide, buyFee: TakerFee, sellFee: TakerFee,
        rate: Decimal, notional: Decimal
    ) -> (TransferCandidate, ArbitrageInputs, ArbitrageRoute)? {
        let priced = usable.compactMap { candidate -> (TransferCandidate, ArbitrageInputs, ArbitrageRoute)? in
            guard let fee = candidate.fee else { return nil }
            let inputs = ArbitrageInputs(
                asks: asks, bids: bids, buyFee: buyFee, sellFee: sellFee, withdrawal: fee, rate: rate)
            return (candidate, inputs, inputs.route(notional: notional))
        }
        return priced.max(by: { Self.worse($0.2, $0.0, than: $1.2, $1.0) })
    }

    /// The route `report(breakEven: false)` prices, from the two sides already made walkable
    /// (`Walkable.side`), with nothing else of the report built: no problems, warnings, rates or
    /// legs (the premium board prices hundreds of routes and shows only the percent and the
    /// fill). `nil` wherever `report()` would have no route or no percent: the caller asks
    /// `report()` for why.
    ///
    /// `converted` is `convertedNotional()`, when the caller already has it (it depends only on
    /// the two currencies and the rates, not on the books).
    func pricedRoute(asks: BookSide, bids: BookSide, converted: ConvertedNotional? = nil) -> ArbitrageRoute? {
        guard let buyFee = buy.fee?.fee, let sellFee = sell.fee?.fee,
            let converted = converted ?? convertedNotional()
        else { return nil }
        let notionalInBuy = converted.notional
        let rate = converted.rate
        var unused = blankReport()
        let candidates = TransferCandidate.candidates(coin: coin, source: source, destination: destination)
        guard let usable = chooseNetwork(candidates, report: &unused),
            let best = Self.cheapest(
                usable, asks: asks, bids: bids, buyFee: buyFee, sellFee: sellFee, rate: rate, notional: notionalInBuy),
            best.2.netPercent != nil
        else { return nil }
        return best.2
    }

    /// The notional in the buying currency and one unit of the selling currency in the buying
    /// one, as `report()` converts them.
    struct ConvertedNotional: Sendable, Equatable {
        var notional: Decimal
        var rate: Decimal
    }

    /// The notional and the rate converted, `nil` when either conversion has a problem
    /// (`convert` answers only for a conversion without one: `report()`'s `fx` check).
    func convertedNotional() -> ConvertedNotional? {
        let conversions = Self.conversions(
            currency: currency, buyQuote: buy.market.quote, sellQuote: sell.market.quote)
        guard let notional = convert(notional, conversions.notional), let rate = convert(1, conversions.rate)
        else { return nil }
        return ConvertedNotional(notional: notional, rate: rate)
    }

    /// `amount` through `conversion`, multiplied by its inputs above the line and only then
    /// divided by those below, to Decimal's 38 digits (`Conversion.convert` rounds a quotient to
    /// 12 decimals, which is 9 significant digits of a KRW->USDT rate: too few to price a
    /// route); `nil` when an input cannot be used.
    func convert(_ amount: Decimal, _ conversion: Conversion) -> Decimal? {
        guard conversion.problems(in: values).isEmpty else { return nil }
        var above = amount
        for input in conversion.numerator {
            guard let value = values[input]?.value else { return nil }
            above *= value
        }
        var below: Decimal = 1
        for input in conversion.denominator {
            guard let value = values[input]?.value else { return nil }
            below *= value
        }
        return below == 1 ? above : above / below
    }

    /// Whether route `a` on network `x` is worse than `b` on `y`: less net, then fewer sides
    /// known open, then the later name.
    static func worse(_ a: ArbitrageRoute, _ x: TransferCandidate, than b: ArbitrageRoute, _ y: TransferCandidate)
        -> Bool
    {
        if a.net != b.net { return a.net < b.net }
        let opens = { (c: TransferCandidate) in [c.withdraw, c.deposit].filter { $0 == .open }.count }
        if opens(x) != opens(y) { return opens(x) < opens(y) }
        return x.network > y.network
    }

    /// The usable networks, both sides known open first; `nil` (with the problem said) when
    /// there is none. Unknown sides are warned about.
    func chooseNetwork(_ candidates: [TransferCandidate], report: inout ArbReport) -> [TransferCandidate]? {
        guard !candidates.isEmpty else {
            let names = { (rows: [TransferStatus]) in
                rows.map { TransferNetwork.key($0.network, coin: coin) }.joined(separator: ", ")
            }
            report.problems.append(
                ArbProblem(
                    "noRoute",
                    "no route for \(coin): \(buy.exchange) and \(sell.exchange) share no network "
                        + "(\(buy.exchange): \(names(source)); \(sell.exchange): \(names(destination)))"))
            return nil
        }
        let usable = candidates.filter(\.usable)
        guard !usable.isEmpty else {
            let why = candidates.map { candidate in
                var closed: [String] = []
                if candidate.withdraw == .closed { closed.append("withdrawals closed on \(buy.exchange)") }
                if candidate.deposit == .closed { closed.append("deposits closed on \(sell.exchange)") }
                return "\(candidate.network): " + closed.joined(separator: " and ")
            }
            report.problems.append(
                ArbProblem("noRoute", "no route for \(coin): " + why.joined(separator: "; ")))
            return nil
        }
        let ordered = usable.enumerated().sorted { a, b in
            let opens = { (c: TransferCandidate) in [c.withdraw, c.deposit].filter { $0 == .open }.count }
            if opens(a.element) != opens(b.element) { return opens(a.element) > opens(b.element) }
            return a.offset < b.offset
        }.map(\.element)
        return ordered
    }

    /// Both sides of `book` made walkable as `side(_:leg:kind:report:)` makes them, without
    /// saying why not: both `nil` for a failed or crossed book, one `nil` when it is empty.
    static func walkableSides(_ book: Result<OrderBook, AggError>) -> (asks: BookSide?, bids: BookSide?) {
        guard case .success(let book) = book else { return (nil, nil) }
        let asks = BookSide(book.asks, kind: .asks)
        let bids = BookSide(book.bids, kind: .bids)
        if BookSide.isCrossed(asks: asks, bids: bids) { return (nil, nil) }
        return (asks.levels.isEmpty ? nil : asks, bids.levels.isEmpty ? nil : bids)
    }

    /// `book`'s side made walkable, or `nil` with the problem said: the book failed, or it is
    /// crossed (its best ask below its best bid: not a live book, so not used).
    func side(_ book: Result<OrderBook, AggError>, leg: ArbLeg, kind: BookSide.Kind, report: inout ArbReport)
        -> BookSide?
    {
        switch book {
        case .failure(let error):
            report.problems.append(ArbProblem("book", exchange: leg.exchange, error.description))
            return nil
        case .success(let book):
            let asks = BookSide(book.asks, kind: .asks)
            let bids = BookSide(book.bids, kind: .bids)
            if BookSide.isCrossed(asks: asks, bids: bids), let ask = asks.best, let bid = bids.best {
                report.problems.append(
                    ArbProblem(
                        "crossedBook", exchange: leg.exchange,
                        "the \(leg.exchange) \(leg.market) book is crossed (best ask \(ask) below best bid \(bid)): "
                            + "not used"))
                return nil
            }
            let side = kind == .asks ? asks : bids
            let name = kind == .asks ? "asks" : "bids"
            if side.skipped > 0 {
                report.warnings.append(
                    ArbProblem(
                        "levels", exchange: leg.exchange,
                        "\(leg.exchange) \(leg.market) \(name): \(side.skipped) level(s) with a zero or negative "
                            + "price or amount skipped"))
            }
            if side.reordered {
                report.warnings.append(
                    ArbProblem(
                        "levels", exchange: leg.exchange,
                        "\(leg.exchange) \(leg.market) \(name) were not best first: sorted"))
            }
            if side.levels.isEmpty {
                report.problems.append(
                    ArbProblem("book", exchange: leg.exchange, "the \(leg.exchange) \(leg.market) \(name) are empty"))
                return nil
            }
            return side
        }
    }
}
