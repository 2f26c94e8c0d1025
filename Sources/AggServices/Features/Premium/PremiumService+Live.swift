import AggCore
import FoundationEssentials

/// The board of `agg premium --watch --stream`: the latest quote of every (venue, market) it
/// follows and the FX rate it holds. A change of quotes recomputes only the rows of the coins it
/// touches (`PremiumBoard.recomputing`), a new FX rate every row; the board is always the one
/// `PremiumBoard(currency:quotes:fx:)` makes of the quotes held.
package struct LivePremiumBoard: Sendable {
    private struct Key: Hashable, Sendable {
        var venue: String
        var market: Market
    }

    /// The board's currency (KRW).
    package let currency: String
    let maximumDeviationPercent: Decimal
    /// The latest quote of each (venue, market), by coin.
    private var quotes: [String: [Key: Quote]] = [:]
    /// The rate held; `nil` while no FX source gives a usable one.
    package private(set) var rate: RateValue?
    /// The board of the quotes held at `rate`; `nil` without a rate.
    package private(set) var board: PremiumBoard?
    /// The coins whose rows the last change made again (every coin for a new rate), by code.
    package private(set) var recomputed: [String] = []
    /// Rows made since the start.
    package private(set) var rowsRecomputed = 0

    /// A board of `quotes` (a REST snapshot of every ticker) at `rate`.
    package init(
        currency: String, quotes: [Quote], rate: RateValue?,
        maximumDeviationPercent: Decimal = PremiumBoard.defaultMaximumDeviationPercent
    ) {
        self.currency = currency
        self.maximumDeviationPercent = maximumDeviationPercent
        for quote in quotes {
            self.quotes[quote.market.base, default: [:]][Key(venue: quote.exchange, market: quote.market)] = quote
        }
        set(rate: rate)
    }

    /// Every quote held, by coin, venue and market.
    package var allQuotes: [Quote] {
        quotes.keys.sorted().flatMap { base in
            quotes[base, default: [:]].values.sorted { ($0.exchange, $0.market.quote) < ($1.exchange, $1.market.quote) }
        }
    }

    /// Holds `rate`: every row is made again when it differs from the rate held.
    package mutating func set(rate: RateValue?) {
        if board != nil, rate == self.rate {
            recomputed = []
            return
        }
        self.rate = rate
        guard let rate else {
            board = nil
            recomputed = []
            return
        }
        let made = PremiumBoard(
            currency: currency, quotes: allQuotes, fx: rate, maximumDeviationPercent: maximumDeviationPercent)
        board = made
        recomputed = made.rows.map(\.base)
        rowsRecomputed += recomputed.count
    }

    /// Takes `changed` quotes (from a stream frame or a REST poll) and makes again the rows of
    /// their coins; a local venue's USDT price enters every row of the board (its USDT
    /// premium and the tether line), so it makes every row again.
    package mutating func apply(_ changed: [Quote]) {
        var bases: Set<String> = []
        var tetherMoved = false
        for quote in changed {
            let key = Key(venue: quote.exchange, market: quote.market)
            quotes[quote.market.base, default: [:]][key] = quote
            bases.insert(quote.market.base)
            if quote.market.quote == currency, quote.market.base == "USDT" { tetherMoved = true }
        }
        if tetherMoved { bases.formUnion(quotes.keys) }
        guard let board, !bases.isEmpty else {
            recomputed = []
            return
        }
        var inputs = bases.flatMap { quotes[$0, default: [:]].values }
        if !bases.contains("USDT") {
            inputs += quotes["USDT", default: [:]].values.filter { $0.market.quote == currency }
        }
        let made = board.recomputing(bases, from: inputs, maximumDeviationPercent: maximumDeviationPercent)
        self.board = made
        // Only the coins that have (or had) a row were made again.
        let listed = Set(made.rows.map(\.base)).union(board.rows.map(\.base))
        recomputed = bases.filter { listed.contains($0) }.sorted()
        rowsRecomputed += recomputed.count
    }
}

extension PremiumService {
    /// What a live board polls beside the streams: FX tables and transfer status.
    package struct Inputs: Sendable {
        /// Every FX table known (the request's known tables and those that answered now).
        package var tables: [RateTable]
        /// The FX sources that failed now.
        package var errors: [AggError]
        /// The FX sources asked now and what they answered.
        package var answered: [(source: String, result: Swift.Result<RateTable, AggError>)]
        package var transfers: TransferStatusService.Report
    }

    /// Asks the FX sources of `request` not among its known tables and the transfer status of its
    /// local venues, all at once; no ticker.
    package func inputs(_ request: Request) async -> Inputs {
        let factory = self.factory
        let known = Set(request.knownTables.map(\.source))
        let asked = request.fxSources.filter { !known.contains($0.id) }
        async let fxAnswers = concurrentResults(asked) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).rates(base: Conversion.fxBase)
        }
        let transferVenues = request.venues.filter {
            $0.supports(.transferStatus) && $0.quoteCurrencies.contains(request.currency)
        }
        async let transferAnswers = concurrentResults(transferVenues) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).transferStatus(coins: [])
        }
        var inputs = Inputs(
            tables: request.knownTables, errors: [], answered: [],
            transfers: TransferStatusService.Report(rows: [], errors: []))
        for (descriptor, result) in zip(asked, await fxAnswers) {
            inputs.answered.append((descriptor.id, result))
            switch result {
            case .success(let table): inputs.tables.append(table)
            case .failure(let error): inputs.errors.append(error)
            }
        }
        for answer in await transferAnswers {
            switch answer {
            case .success(let rows): inputs.transfers.rows += rows
            case .failure(let error): inputs.transfers.errors.append(error)
            }
        }
        return inputs
    }

    /// The FX rate of `request` among `tables` for prices of `quotes`, as `run` chooses it.
    package static func rate(_ request: Request, tables: [RateTable], quotes: [Quote], now: Timestamp)
        -> Swift.Result<RateTable, AggError>
    {
        let pricesTime = FXChoice.ageReference(quotes: quotes, now: now)
        return Swift.Result { () throws(AggError) in
            try FXChoice.choose(
                from: tables, named: request.fxSource, quote: request.currency, now: pricesTime,
                maximumAgeSeconds: request.maximumFXAgeSeconds)
        }
    }

    /// The rate a board uses from `table`.
    package static func rateValue(_ table: RateTable, currency: String) -> RateValue {
        RateValue(value: table.rates[currency] ?? 1, source: table.source, asOf: table.asOf)
    }

    /// The markets a live board follows, per venue of `request` (in its order): those of the
    /// coins the `snapshot`'s quotes put on the board (of `symbols` when given), each global
    /// venue's in the dollar currency the board reads, and every local venue's USDT market
    /// (the tether line and the USDT premiums).
    package static func streamPlan(_ request: Request, snapshot: [Quote], symbols: [String]) -> QuoteService.Plan {
        // The rate does not change which prices a board reads.
        let shape = PremiumBoard(
            currency: request.currency, quotes: snapshot, fx: RateValue(value: 1, source: "", asOf: nil),
            maximumDeviationPercent: request.maximumDeviationPercent)
        let wanted = Set(symbols)
        var markets: [String: Set<Market>] = [:]
        for row in shape.rows where wanted.isEmpty || wanted.contains(row.base) {
            for price in row.venues { markets[price.exchange, default: []].insert(price.market) }
        }
        for quote in snapshot where quote.market.base == "USDT" && quote.market.quote == request.currency {
            markets[quote.exchange, default: []].insert(quote.market)
        }
        let requests = request.venues.compactMap { descriptor -> QuoteService.VenueRequest? in
            guard let venueMarkets = markets[descriptor.id], !venueMarkets.isEmpty else { return nil }
            return QuoteService.VenueRequest(
                venue: descriptor.id,
                markets: venueMarkets.sorted { ($0.base, $0.quote) < ($1.base, $1.quote) })
        }
        return QuoteService.Plan(requests: requests, all: false, quoteCurrency: nil)
    }
}

/// What `agg premium --watch --stream` shows, between redraws: the live board, the FX tables and
/// transfer status polled beside it, and the failures of the first snapshot's venues (a venue
/// that did not answer it has no markets to follow).
package struct LivePremiumSession: Sendable {
    let request: PremiumService.Request
    /// The board, recomputed row by row.
    package private(set) var board: LivePremiumBoard
    private let snapshot: PremiumService.Result
    private var tables: [RateTable]
    private var fxErrors: [AggError]
    private var transfers: TransferStatusService.Report

    /// A session that starts from `snapshot` (`PremiumService.run` of `request`).
    package init(request: PremiumService.Request, snapshot: PremiumService.Result) {
        self.request = request
        self.snapshot = snapshot
        board = LivePremiumBoard(
            currency: request.currency, quotes: snapshot.quotes,
            rate: snapshot.fx.map { PremiumService.rateValue($0, currency: request.currency) },
            maximumDeviationPercent: request.maximumDeviationPercent)
        tables = snapshot.tables
        let fxSources = Set(request.fxSources.map(\.id))
        fxErrors = snapshot.errors.filter { $0.venue.map(fxSources.contains) ?? false }
        transfers = snapshot.transfers
    }

    /// The live quote service's changed outcomes: a fresh quote, or the last one standing in for
    /// a venue whose stream is down (its age tells it is not fresh).
    package mutating func apply(_ outcomes: [QuoteService.Outcome]) {
        let quotes = outcomes.compactMap { outcome -> Quote? in
            switch outcome.result {
            case .success(let quote): quote
            case .failure: outcome.stale?.quote
            }
        }
        board.apply(quotes)
    }

    /// A poll of the FX sources and transfer status.
    package mutating func take(_ inputs: PremiumService.Inputs) {
        tables = inputs.tables
        fxErrors = inputs.errors
        transfers = inputs.transfers
    }

    /// The board's answer at `now`: the FX rate chosen again (the prices' time moves with the
    /// frames, and so does the rate's age), the board at it.
    package mutating func result(at now: Timestamp) -> PremiumService.Result {
        let quotes = board.allQuotes
        let fxSources = Set(request.fxSources.map(\.id))
        var errors = snapshot.errors.filter { !($0.venue.map(fxSources.contains) ?? false) } + fxErrors
        var chosen: RateTable?
        switch PremiumService.rate(request, tables: tables, quotes: quotes, now: now) {
        case .success(let table): chosen = table
        case .failure(let error): errors.append(error)
        }
        board.set(rate: chosen.map { PremiumService.rateValue($0, currency: request.currency) })
        return PremiumService.Result(
            currency: request.currency, board: board.board, fx: chosen, tables: tables, errors: errors, asOf: now,
            transfers: transfers, quotes: quotes, skipped: snapshot.skipped)
    }
}

extension PremiumRequest {
    /// What the live quote service follows for `agg premium --watch --stream` after `snapshot`
    /// (`PremiumService.streamPlan`), polled every `interval` where a venue has no stream.
    package func live(after snapshot: PremiumService.Result, interval: Double, announcesPolling: Bool)
        -> LiveQuoteRequest
    {
        LiveQuoteRequest(
            plan: PremiumService.streamPlan(service, snapshot: snapshot.quotes, symbols: symbols), interval: interval,
            streams: true, announcesPolling: announcesPolling)
    }
}
