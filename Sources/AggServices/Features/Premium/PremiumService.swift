import AggCore
import FoundationEssentials

/// The premium board's use case: one all-tickers request per venue and one request per FX
/// source, all at once; then the board from what answered, with the FX rate chosen and checked
/// for age. No per-coin requests.
package struct PremiumService: Sendable {
    /// What to build.
    package struct Request: Sendable {
        /// The local currency (KRW).
        var currency: String
        /// Venues with an all-tickers request: local ones quote in `currency`, global ones in a
        /// dollar or a dollar stablecoin.
        package var venues: [AdapterDescriptor]
        /// FX sources to ask.
        package var fxSources: [AdapterDescriptor]
        /// `--fx`: the FX source to use; `nil` for the freshest that answered.
        var fxSource: String?
        var maximumFXAgeSeconds: Int64
        var maximumDeviationPercent: Decimal = PremiumBoard.defaultMaximumDeviationPercent
        /// FX tables still fresh from an earlier run (`premium --watch`): their sources are not
        /// asked again.
        package var knownTables: [RateTable] = []
        /// `--notional`: the board's top coins priced at that size; `nil` for `last` only.
        package var atNotional: NotionalAsk? = nil
    }

    /// What came back.
    package struct Result: Sendable {
        /// The board's currency (the request's), also when there is no board.
        var currency: String
        package var board: PremiumBoard?
        /// The FX table the board used.
        var fx: RateTable?
        /// Every FX table that answered.
        package var tables: [RateTable]
        /// One per venue or FX source that failed, and the FX choice when it was refused.
        package var errors: [AggError]
        /// When the board was made.
        package var asOf: Timestamp
        /// Deposit and withdrawal status from the local venues that publish it.
        var transfers = TransferStatusService.Report(rows: [], errors: [])
        /// Every ticker that answered (for the alerts' last and change).
        var quotes: [Quote] = []
        /// The entries of the venues' answers that were skipped because they did not decode:
        /// each costs only its own market (`BulkAnswer`).
        var skipped: [SkippedEntry] = []
        /// The board at `--notional`, when asked.
        package var atNotional: PremiumAtNotional? = nil

        /// Whether `coin` can move in and out of `venue`.
        func transfer(venue: String, coin: String) -> TransferState {
            transfers.state(venue: venue, coin: coin)
        }
    }

    /// A venue's answer: its tickers and the entries skipped, or why there are none.
    private struct VenueAnswer: Sendable {
        var venue: String
        var outcome: Swift.Result<BulkAnswer<Quote>, AggError>
    }

    var factory: AdapterFactory
    var now: @Sendable () -> Timestamp

    /// Venues that can take part: an all-tickers request in `currency` (local) or in a dollar
    /// currency (global). The local ones come first.
    static func venues(in registry: AdapterRegistry, currency: String, named: [String]) throws(AggError)
        -> [AdapterDescriptor]
    {
        var chosen: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.allTickers) else {
                throw .usage("\(descriptor.id) cannot give every ticker in one request; see 'agg exchanges'")
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        if chosen.isEmpty { chosen = registry.descriptors(supporting: .allTickers) }
        let local = chosen.filter { $0.quoteCurrencies.contains(currency) }
        let global = chosen.filter {
            !$0.quoteCurrencies.contains(currency) && PremiumBoard.globalQuotes.contains($0.homeCurrency)
        }
        guard !local.isEmpty, !global.isEmpty else {
            throw .usage(
                "the board needs a venue quoting in \(currency) and a global one; asked: "
                    + chosen.map(\.id).joined(separator: ", "))
        }
        return local + global
    }

    /// Global venues that `compare` asks but the board cannot: they give a ticker, not every
    /// ticker in one request (Coinbase). The board says so rather than drop them in silence.
    /// Empty when venues are `named`.
    static func notAsked(in registry: AdapterRegistry, currency: String, named: [String]) -> [String] {
        guard named.isEmpty else { return [] }
        return registry.descriptors(supporting: .ticker).filter {
            !$0.supports(.allTickers) && !$0.quoteCurrencies.contains(currency)
                && PremiumBoard.globalQuotes.contains($0.homeCurrency)
        }.map(\.id)
    }

    /// The currency each venue is asked for.
    static func askedCurrency(_ descriptor: AdapterDescriptor, local currency: String) -> String {
        descriptor.quoteCurrencies.contains(currency) ? currency : descriptor.homeCurrency
    }

    package func run(_ request: Request) async -> Result {
        let factory = self.factory
        let currency = request.currency
        let now = self.now
        async let venueAnswers = concurrentMap(request.venues) { descriptor in
            let outcome = await Swift.Result<BulkAnswer<Quote>, AggError>.catching { () throws(AggError) in
                let adapter = try factory.adapter(id: descriptor.id)
                return try await adapter.allQuotesAnswer(quotedIn: Self.askedCurrency(descriptor, local: currency))
            }
            // Each quote carries when its venue's answer arrived.
            let received = outcome.map { answer in
                var answer = answer
                let time = now()
                for index in answer.values.indices where answer.values[index].receivedAt == nil {
                    answer.values[index].receivedAt = time
                }
                return answer
            }
            return VenueAnswer(venue: descriptor.id, outcome: received)
        }
        let known = Set(request.knownTables.map(\.source))
        async let fxAnswers = concurrentResults(request.fxSources.filter { !known.contains($0.id) }) {
            descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).rates(base: Conversion.fxBase)
        }
        // Transfer status only marks rows: it is asked at the same time, and its failures are
        // warnings, not a failed board.
        let transferVenues = request.venues.filter {
            $0.supports(.transferStatus) && $0.quoteCurrencies.contains(currency)
        }
        async let transferAnswers = concurrentResults(transferVenues) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).transferStatus(coins: [])
        }
        let venues = await venueAnswers
        let fxResults = await fxAnswers
        var transfers = TransferStatusService.Report(rows: [], errors: [])
        for answer in await transferAnswers {
            switch answer {
            case .success(let rows): transfers.rows += rows
            case .failure(let error): transfers.errors.append(error)
            }
        }

        var errors: [AggError] = []
        var quotes: [Quote] = []
        var skipped: [SkippedEntry] = []
        for answer in venues {
            switch answer.outcome {
            case .success(let answered):
                quotes += answered.values
                skipped += answered.skipped
            case .failure(let error): errors.append(error)
            }
        }
        var tables = request.knownTables
        for result in fxResults {
            switch result {
            case .success(let table): tables.append(table)
            case .failure(let error): errors.append(error)
            }
        }
        let asOf = now()
        // The FX rate's age is measured from the prices it converts (the newest ticker, never
        // past the real clock), which is now for live answers and the recorded moment for --offline.
        let pricesTime = FXChoice.ageReference(quotes: quotes, now: asOf)
        let fx: RateTable
        do throws(AggError) {
            fx = try FXChoice.choose(
                from: tables, named: request.fxSource, quote: currency, now: pricesTime,
                maximumAgeSeconds: request.maximumFXAgeSeconds)
        } catch {
            return Result(
                currency: currency, board: nil, fx: nil, tables: tables, errors: errors + [error], asOf: asOf,
                transfers: transfers,
                quotes: quotes, skipped: skipped)
        }
        let rate = RateValue(value: fx.rates[currency] ?? 1, source: fx.source, asOf: fx.asOf)
        let board = PremiumBoard(
            currency: currency, quotes: quotes, fx: rate, maximumDeviationPercent: request.maximumDeviationPercent)
        var result = Result(
            currency: currency, board: board, fx: fx, tables: tables, errors: errors, asOf: asOf, transfers: transfers,
            quotes: quotes, skipped: skipped)
        if let ask = request.atNotional {
            result.atNotional = await atNotional(ask, board: board, venues: request.venues, transfers: transfers.rows)
        }
        return result
    }

    package init(factory: AdapterFactory, now: @escaping @Sendable () -> Timestamp) {
        self.factory = factory
        self.now = now
    }
}
