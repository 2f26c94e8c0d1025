import AggCore
import AggOptions
import AggStore
import FoundationEssentials

/// The compare use case: ask every venue for the coin, the FX sources (or their stored
/// snapshots) and the USDT/KRW venues at once, store the rate tables fetched, and compare.
package struct CompareService: Sendable {
    var factory: AdapterFactory
    /// The local database for stored rates; `nil` without one (or for `--offline`).
    var store: Store?
    var now: @Sendable () -> Timestamp
    /// Where `AGG_DEBUG` notes go (a rate snapshot not stored because the database was busy).
    var debug: @Sendable (String) -> Void = { _ in }

    /// Opens the local database (creating it when asked): its stored rates stand in for FX
    /// requests and take the tables fetched, and its recorded premiums give each venue's
    /// percentile. `nil` runs without one (`--offline`, `agg serve`).
    package typealias OpenDatabase = @Sendable (_ create: Bool) -> Store?

    /// The answer to `request`: the rates it needs from the database when one opens (created
    /// only when an FX rate is needed: stored rates are a convenience, and without a usable
    /// database every source is asked), every coin compared, and each venue's premium set
    /// among the premiums recorded over the last seven days.
    package static func run(
        _ request: CompareRequest, factory: AdapterFactory, database: OpenDatabase?,
        now: @escaping @Sendable () -> Timestamp, debug: @escaping @Sendable (String) -> Void = { _ in }
    ) async -> CompareAnswer {
        let store = request.plans.allSatisfy(\.fxSources.isEmpty) ? nil : database?(true)
        let service = CompareService(factory: factory, store: store, now: now, debug: debug)
        let reports = await service.compare(request.plans, refresh: request.refresh)
        var renderings: [CompareRendering] = []
        for report in reports {
            var rendering = CompareRendering(
                report: report, aging: QuoteAging(now: now(), staleAfter: request.staleAfter))
            if let database {
                rendering.percentiles = await PremiumPercentiles.load(
                    store: store ?? database(false),
                    current: report.outcomes.compactMap { venue, outcome in
                        guard case .compared(let row) = outcome, let percent = row.premiumPercent else { return nil }
                        return PremiumPercentiles.Current(
                            exchange: venue.venue, symbol: report.plan.coin, percent: percent)
                    }, now: now())
            }
            renderings.append(rendering)
        }
        return CompareAnswer(renderings: renderings)
    }

    /// The report for `plan`; with `refresh`, every FX source is asked even when its stored
    /// snapshot is still current.
    func compare(_ plan: ComparePlan, refresh: Bool) async -> CompareReport {
        let stored = refresh ? [:] : plan.storedRates(in: store, now: now())
        let fetch = await plan.fetch(factory: factory, stored: stored, now: now)
        plan.save(fetch.tables, in: store, debug: debug)
        return fetch.report
    }

    /// The reports for several coins at once. The first plan's fetch asks the FX sources whose
    /// stored snapshot is not current and the USDT/KRW venues (`--usdt market`); the others then
    /// use those tables and tickers, so that each source and each USDT/KRW market is asked at
    /// most once.
    func compare(_ plans: [ComparePlan], refresh: Bool) async -> [CompareReport] {
        guard let first = plans.first else { return [] }
        var stored = refresh ? [:] : first.storedRates(in: store, now: now())
        let factory = self.factory
        let now = self.now
        var reports: [CompareReport] = []
        var rest = plans.dropFirst()[...]
        var usdt: [String: QuoteResult] = [:]
        if first.fxSources.contains(where: { stored[$0] == nil }) || !first.usdtVenues.isEmpty {
            let fetch = await first.fetch(factory: factory, stored: stored, now: now)
            first.save(fetch.tables, in: store, debug: debug)
            for table in fetch.tables { stored[table.source] = table }
            usdt = fetch.usdt
            reports.append(fetch.report)
        } else {
            rest = plans[...]
        }
        let known = stored
        let knownUSDT = usdt
        let others = await concurrentMap(Array(rest)) { plan in
            await plan.fetch(factory: factory, stored: known, usdt: knownUSDT, now: now).report
        }
        return reports + others
    }
}

/// What to ask for: the coin on each venue, and the sources of the rates the conversion needs.
package struct ComparePlan: Sendable {
    /// One venue's market, or why it is not asked.
    package struct Venue: Sendable {
        var venue: String
        var market: Market
        /// Set when the venue is not asked at all (the coin is its own quote currency).
        var skipped: AggError?

        package init(venue: String, market: Market, skipped: AggError? = nil) {
            self.venue = venue
            self.market = market
            self.skipped = skipped
        }
    }

    var coin: String
    var currency: String
    var stablecoins: StablecoinValuation
    /// `--fx` and `--max-fx-age`: the FX source to convert with (only it is asked) or the
    /// freshest that answers, and the oldest rate allowed.
    var fx: FXOptions
    var venues: [Venue]
    /// The rate inputs the conversion needs and the sources asked for them.
    var rates: RateResolution

    /// The inputs the conversion needs.
    var inputs: Set<RateInput> { rates.inputs }
    /// FX adapters, in the order they are preferred.
    var fxSources: [String] { rates.fxSources }
    /// Venues that may quote USDT in KRW, in the order they are preferred.
    var usdtVenues: [String] { rates.usdtVenues }
    /// The credit each FX source asks for wherever its rates are shown, by id.
    var attributions: [String: String] { rates.attributions }

    package init(
        coin: String, currency: String, stablecoins: StablecoinValuation, fx: FXOptions, named: [String],
        registry: AdapterRegistry
    ) throws(AggError) {
        self.coin = coin
        self.currency = currency
        self.stablecoins = stablecoins
        self.fx = fx
        var descriptors: [AdapterDescriptor] = []
        for id in named {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.ticker) else {
                throw .usage("\(descriptor.id) cannot give a ticker; see 'agg exchanges'")
            }
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        let explicit = !descriptors.isEmpty
        if !explicit { descriptors = registry.descriptors(supporting: .ticker) }
        venues = descriptors.compactMap { descriptor in
            let market = Market(base: coin, quote: descriptor.homeCurrency)
            guard coin == descriptor.homeCurrency else { return Venue(venue: descriptor.id, market: market) }
            guard explicit else { return nil }
            return Venue(
                venue: descriptor.id, market: market,
                skipped: .notListed(
                    venue: descriptor.id, market: market, code: "",
                    message: "\(coin) is \(descriptor.id)'s own quote currency"))
        }
        if venues.isEmpty { throw .usage("no registered venue can price \(coin); see 'agg exchanges'") }

        let asked = venues.filter { $0.skipped == nil }
        rates = RateResolution(
            inputs: PriceComparison.inputs(
                coin: coin, currency: currency, quoteCurrencies: Set(asked.map(\.market.quote)),
                stablecoins: stablecoins), fx: fx, registry: registry, preferringUSDTOn: Set(asked.map(\.venue)))
    }

    /// The USD snapshot of each FX source that is still its latest answer (its next update is
    /// after `now`), by source id.
    func storedRates(in store: Store?, now: Timestamp) -> [String: RateTable] {
        guard let store else { return [:] }
        var tables: [String: RateTable] = [:]
        for source in fxSources {
            if let table = try? store.currentSnapshot(base: Conversion.fxBase, source: source, now: now) {
                tables[source] = table
            }
        }
        return tables
    }

    /// Stores the rate tables fetched as snapshots, best effort, keeping as many snapshots of
    /// each source and base as are already kept (at least `agg rates`' default), so that a longer
    /// `agg rates --keep` is not cut short. A database another process is writing is not waited
    /// for: the table is then not stored, and `debug` is told.
    func save(_ tables: [RateTable], in store: Store?, debug: (String) -> Void = { _ in }) {
        guard let store else { return }
        // A table with refused rates is not stored (the store would refuse it too).
        for table in tables where table.screened().refused.isEmpty {
            let kept = (try? store.snapshotCount(base: table.base, source: table.source)) ?? 0
            // Never waited for: another process holding the database skips the write.
            let written = try? store.saveSnapshotUnlessBusy(table, keep: max(RatesService.defaultKeep, kept))
            if written == .skippedBusy { debug(SnapshotStoreNote.skipped(table, in: store)) }
        }
    }

    /// What one fetch learned: the report, the rate tables fetched (not the stored ones), and
    /// each USDT/KRW venue's answer, for the next coins to reuse.
    package struct Fetch: Sendable {
        var report: CompareReport
        var tables: [RateTable]
        var usdt: [String: QuoteResult]
    }

    /// Asks every venue, every FX source without a `stored` table and every USDT/KRW venue
    /// without a `usdt` answer at once, then compares. An FX rate's age is measured at the
    /// newest price's time (`now` when no price has one).
    func fetch(
        factory: AdapterFactory, stored: [String: RateTable] = [:], usdt known: [String: QuoteResult] = [:],
        now: @escaping @Sendable () -> Timestamp
    ) async -> Fetch {
        async let venueAnswers = concurrentMap(venues) { venue in
            if let skipped = venue.skipped { return QuoteResult.failure(skipped) }
            // The quote carries when its venue's answer arrived.
            return await RateResolution.ticker(venue.market, on: venue.venue, factory: factory).map { quote in
                var quote = quote
                if quote.receivedAt == nil { quote.receivedAt = now() }
                return quote
            }
        }
        async let fxAnswers = rates.fetchFX(factory: factory, stored: stored)
        async let usdtAnswers = rates.fetchUSDT(factory: factory, known: known)
        let venueResults = await venueAnswers
        let fxResults = await fxAnswers
        let usdtResults = await usdtAnswers
        let pricesTime = venueResults.compactMap { result in
            if case .success(let quote) = result { quote.timestamp } else { nil }
        }.max { $0.millisecondsSince1970 < $1.millisecondsSince1970 }
        let (values, unavailable) = rates.values(fx: fxResults, usdt: usdtResults, at: pricesTime ?? now())
        let fetched = zip(fxSources, fxResults).compactMap { source, result -> RateTable? in
            guard stored[source] == nil, case .success(let table) = result else { return nil }
            return table
        }
        let report = CompareReport(
            plan: self,
            results: venueResults,
            values: values,
            unavailable: unavailable,
            fxFailures: values.keys.contains { if case .fx = $0 { true } else { false } }
                ? []
                : zip(fxSources, fxResults).compactMap { source, result in
                    if case .failure(let error) = result { (source, error) } else { nil }
                })
        return Fetch(
            report: report, tables: fetched,
            usdt: Dictionary(zip(usdtVenues, usdtResults).map { ($0, $1) }) { first, _ in first })
    }
}
