import AggCore
import FoundationEssentials

/// The `agg arb` use case: both books, both venues' transfer status and the rate inputs asked
/// at once, then priced by `ArbPlanner`.
package struct ArbService: Sendable {
    var factory: AdapterFactory
    var fees: TakerFeeLookup
    var now: @Sendable () -> Timestamp

    package init(factory: AdapterFactory, fees: TakerFeeLookup, now: @escaping @Sendable () -> Timestamp) {
        self.factory = factory
        self.fees = fees
        self.now = now
    }

    /// The report for `request`.
    package func run(_ request: ArbRequest) async -> ArbReport {
        let factory = self.factory
        let coin = request.coin
        let asked = now()
        async let buyBook = Self.book(request.buyMarket, on: request.from, factory: factory)
        async let sellBook = Self.book(request.sellMarket, on: request.to, factory: factory)
        async let source = Self.status(coin, on: request.from, factory: factory)
        async let destination = Self.status(coin, on: request.to, factory: factory)
        async let fx = request.rates.fetchFX(factory: factory, stored: [:])
        async let usdt = request.rates.fetchUSDT(factory: factory, known: [:])
        let buyResult = await buyBook
        let sellResult = await sellBook
        let sourceAnswer = await source
        let destinationAnswer = await destination
        let fxResults = await fx
        let usdtResults = await usdt
        let booksTime = [buyResult, sellResult].compactMap { result in
            if case .success(let book) = result { book.timestamp } else { nil }
        }.max { $0.millisecondsSince1970 < $1.millisecondsSince1970 }
        let (values, unavailable) = request.rates.values(fx: fxResults, usdt: usdtResults, at: booksTime ?? asked)
        func leg(_ venue: AdapterDescriptor, _ market: Market, _ book: Result<OrderBook, AggError>) -> ArbLeg {
            var time: Timestamp? = asked
            if case .success(let answer) = book { time = answer.timestamp ?? asked }
            return ArbLeg(
                exchange: venue.id, market: market, asOf: time, fee: fees.taker(venue: venue.id, quotedIn: market.quote)
            )
        }
        let planner = ArbPlanner(
            coin: coin, notional: request.notional, currency: request.currency,
            buy: leg(request.from, request.buyMarket, buyResult), sell: leg(request.to, request.sellMarket, sellResult),
            buyBook: buyResult, sellBook: sellResult,
            source: sourceAnswer.rows.map { Self.stamped($0, asked) },
            destination: destinationAnswer.rows.map { Self.stamped($0, asked) }, values: values,
            unavailable: unavailable)
        var report = planner.report()
        report.warnings = sourceAnswer.notes + destinationAnswer.notes + report.warnings + Self.unknownSides(report)
        return report
    }

    /// A row with the request's time when the venue gives none.
    static func stamped(_ row: TransferStatus, _ time: Timestamp) -> TransferStatus {
        var row = row
        if row.asOf == nil { row.asOf = time }
        return row
    }

    /// The warnings for a chosen network whose status a side does not say.
    static func unknownSides(_ report: ArbReport) -> [ArbProblem] {
        guard let transfer = report.transfer else { return [] }
        var warnings: [ArbProblem] = []
        if transfer.withdraw == .unknown {
            warnings.append(
                ArbProblem(
                    "unknownStatus", exchange: report.buy.exchange,
                    "\(report.buy.exchange) does not say whether \(report.coin) withdrawals on \(transfer.network) are "
                        + "open: the route assumes they are; check before sending"))
        }
        if transfer.deposit == .unknown {
            warnings.append(
                ArbProblem(
                    "unknownStatus", exchange: report.sell.exchange,
                    "\(report.sell.exchange) does not say whether \(report.coin) deposits on \(transfer.network) are "
                        + "open: the route assumes they are; check before sending"))
        }
        return warnings
    }

    /// The order book of `market` on `venue`, as deep as the venue serves.
    static func book(_ market: Market, on venue: AdapterDescriptor, factory: AdapterFactory) async -> Result<
        OrderBook, AggError
    > {
        await .catching { () throws(AggError) in
            try await factory.adapter(id: venue.id).orderBook(for: market, depth: venue.limits.bookDepth)
        }
    }

    /// A venue's transfer status rows for `coin` and what a reader must know when there are none.
    struct StatusAnswer: Sendable {
        var rows: [TransferStatus]
        var notes: [ArbProblem]
    }

    /// `coin`'s rows on `venue`; none (with a note) when the venue publishes no status or the
    /// request failed: the route then treats that side as unknown.
    static func status(_ coin: String, on venue: AdapterDescriptor, factory: AdapterFactory) async -> StatusAnswer {
        guard venue.supports(.transferStatus) else {
            // No status to ask; a shipped table still gives the networks and their fees (the
            // config file's win), both sides unknown.
            let overrides = factory.context.withdrawalFeeOverrides[venue.id]
            let tabled = venue.withdrawalFees?.rows(coin: coin, exchange: venue.id) ?? []
            return StatusAnswer(
                rows: tabled.map {
                    TransferStatusService.priced($0, table: venue.withdrawalFees, overrides: overrides)
                },
                notes: [])
        }
        let answer = await Result<[TransferStatus], AggError>.catching { () throws(AggError) in
            try await factory.adapter(id: venue.id).transferStatus(coins: [coin])
        }
        switch answer {
        case .success(let rows):
            // The config file's withdrawal fees win, then the venue's, then agg's table, as in `agg status`.
            let overrides = factory.context.withdrawalFeeOverrides[venue.id]
            return StatusAnswer(
                rows: rows.filter { $0.coin == coin }.map {
                    TransferStatusService.priced($0, table: venue.withdrawalFees, overrides: overrides)
                },
                notes: [])
        case .failure(let error):
            return StatusAnswer(
                rows: [],
                notes: [
                    ArbProblem(
                        "status", exchange: venue.id, "no transfer status from \(venue.id): \(error.description)")
                ])
        }
    }
}
