import AggCore
import AggOptions
import FoundationEssentials
import Synchronization

/// `agg record`'s use case: every interval, each venue's tickers (one all-tickers request where
/// the venue has one), the FX rates and optionally the premium board, written to a
/// `HistoryStore` as one `RecordedTick` (one transaction).
///
/// - Each venue is fetched under its own deadline, concurrently: a slow or failing venue is
///   reported and counted, and never delays the others or the next tick.
/// - A venue is never asked more often than its rate limit allows: a venue whose fetch needs
///   more time than one interval is fetched every few ticks (`Venue.everyTicks`) and skipped in
///   between; the token buckets of `AdapterFactory` stand behind that as a second guard.
/// - FX sources, which update a few times a day and block callers who ask often, are asked only
///   when `FXSchedule` says they are due (the first tick, then at their next update, at least a
///   minute and at most five minutes apart, backing off after failures).
/// - Several recorders may share a store: each claims venue leases every tick
///   (`HistoryStore.claimVenues`) and records only the venues it holds.
package struct RecordService: Sendable {
    /// One venue to record.
    package struct Venue: Sendable, Equatable {
        package var descriptor: AdapterDescriptor
        /// The quote currency asked for (the venue's home currency).
        var currency: String
        /// The markets to ask for one by one; empty means every ticker in `currency`, in one request.
        var markets: [Market]
        /// Fetched on one tick in this many (1: every tick), so that its requests stay within its
        /// rate limit whatever the interval.
        package var everyTicks: Int

        package var id: String { descriptor.id }

        /// Requests one fetch makes, at most.
        package var requestsPerFetch: Int { markets.isEmpty ? 1 : markets.count }
    }

    /// What to record.
    package struct Plan: Sendable {
        package var venues: [Venue]
        var fxSources: [AdapterDescriptor]
        /// Coins to keep; empty keeps every coin the venues answer with.
        var symbols: Set<String>
        /// With `--premium`: the local currency of the premium board (KRW).
        var premiumCurrency: String?
        /// The quote currencies whose FX rates are recorded (the venues' currencies).
        var rateQuotes: [String]
    }

    /// How the loop runs.
    package struct Settings: Sendable {
        /// Seconds between ticks.
        var interval: Double
        /// Seconds each venue has to answer within a tick (the HTTP clients' budget).
        var venueDeadline: Double
        /// Seconds after `venueDeadline` at which a venue's fetch is abandoned as a timeout if
        /// its transport has not answered by then: the transport's own deadline comes first and
        /// reports the venue's last answer (an HTTP 500) rather than a timeout.
        var deadlineGrace: Double = 0
        /// Seconds of history to keep; `nil` keeps everything.
        var retainSeconds: Int64?
        /// Rows one prune transaction deletes at most.
        var pruneBatch: Int = 1_000
        /// Ticks between two prune passes (a pass deletes batches until nothing is left to delete).
        package var pruneEveryTicks: Int = 1
        /// A lease lasts this many intervals, so that a recorder that stopped hands its venues
        /// on within a few ticks.
        var leaseIntervals: Double = 3
        /// The oldest FX rate the premium board uses.
        var maximumFXAgeSeconds: Int64 = FXChoice.defaultMaximumAgeSeconds

        package init(interval: Double, venueDeadline: Double, retainSeconds: Int64?) {
            self.interval = interval
            self.venueDeadline = venueDeadline
            self.retainSeconds = retainSeconds
        }
    }

    /// A venue (or FX source) that failed in a tick.
    package struct Failure: Sendable {
        var venue: String
        package var error: AggError
    }

    /// What one tick did.
    package struct TickReport: Sendable {
        package var number: Int
        package var time: Timestamp
        /// Rows written, by table: what the store wrote, which a lease check may make fewer
        /// than the points fetched (`recorded`).
        package var prices = 0
        package var rates = 0
        package var premiums = 0
        /// Venues and FX sources that answered.
        package var answered: [String] = []
        package var failures: [Failure] = []
        /// Venues left out of this tick to stay within their rate limit.
        package var skipped: [String] = []
        /// Venues whose quotes were sampled from their live stream (`--stream`), not asked over
        /// REST, in this tick; among `answered`.
        package var streamed: [String] = []
        /// Entries of the venues' answers skipped because they did not decode (and concern the
        /// coins recorded): each costs only its own market, the others are stored.
        package var skippedEntries: [SkippedEntry] = []
        /// Venues another recorder holds.
        package var heldElsewhere: [String] = []
        /// Why nothing was stored, when the store failed.
        package var storeError: AggError?
        /// Every point the tick fetched (stored unless `storeError`), for what watches the
        /// ticks (alerts); empty for a tick that claimed no venue.
        package var recorded = RecordedTick(time: Timestamp(millisecondsSince1970: 0))
        /// With `--events`: what the event sources due this tick gave.
        package var events: EventRecording.TickOutcome?

        /// Rows stored.
        package var rows: Int { storeError == nil ? prices + rates + premiums : 0 }
    }

    /// Running totals.
    package struct Totals: Sendable, Equatable {
        package var ticks = 0
        package var rows = 0
        package var failures = 0
        package var skips = 0
        /// Entries of venue answers skipped because they did not decode.
        package var badEntries = 0
        package var pruned = 0
        /// Market events recorded (with `--events`).
        package var events = 0
        /// Whether the last tick had a failure (a venue or the store).
        package var lastFailed = false

        package init() {}
    }

    /// What carries from tick to tick.
    package struct State: Sendable {
        /// Ticks since each venue was last fetched.
        var sinceFetch: [String: Int] = [:]
        /// When each FX source is due, and its last table.
        var fx = FXSchedule()
        /// When each event source is due, and which are down.
        var events = EventRecording.Schedule()
    }

    var factory: AdapterFactory
    package var store: any HistoryStore
    var clock: RecorderClock
    /// Who holds the leases: `host:ID` (see `RecorderIdentity`).
    var holder: String
    var settings: Settings
    /// With `--events`: the event sources and their store.
    var events: EventRecording?
    /// With `--stream`: the venues followed on their streams, sampled at each tick instead of
    /// asked over REST while their stream is live.
    var streams: RecordStreams?

    package init(
        factory: AdapterFactory, store: any HistoryStore, clock: RecorderClock, holder: String, settings: Settings,
        events: EventRecording? = nil, streams: RecordStreams? = nil
    ) {
        self.events = events
        self.factory = factory
        self.store = store
        self.clock = clock
        self.holder = holder
        self.settings = settings
        self.streams = streams
    }

    /// The venues and FX sources to record, checked before anything is fetched.
    ///
    /// Without symbols only venues with an all-tickers request can take part; with symbols a
    /// venue without one is asked for each coin in its home currency. `--exchange` naming a venue
    /// that cannot take part is a usage error; from the config file it is skipped.
    package static func plan(
        symbols: [String], exchanges: ExchangeSelection, premium: Bool, interval: Double, registry: AdapterRegistry
    ) throws(AggError) -> Plan {
        var descriptors: [AdapterDescriptor] = []
        for id in exchanges.ids {
            let descriptor = try registry.requireDescriptor(id: id)
            if !descriptors.contains(where: { $0.id == descriptor.id }) { descriptors.append(descriptor) }
        }
        if exchanges.ids.isEmpty {
            descriptors = registry.descriptors.filter { $0.supports(.allTickers) || $0.supports(.ticker) }
        }
        var venues: [Venue] = []
        for descriptor in descriptors where !descriptor.supports(.fxRates) || descriptor.supports(.ticker) {
            var markets: [Market] = []
            if !descriptor.supports(.allTickers) {
                guard descriptor.supports(.ticker), !symbols.isEmpty else {
                    if exchanges.explicit {
                        throw .usage(
                            "\(descriptor.id) has no all-tickers request: name the coins to record "
                                + "(agg record BTC ETH --exchange \(descriptor.id))")
                    }
                    continue
                }
                markets = symbols.map { Market(base: $0, quote: descriptor.homeCurrency) }
            }
            var venue = Venue(
                descriptor: descriptor, currency: descriptor.homeCurrency, markets: markets, everyTicks: 1)
            venue.everyTicks = everyTicks(venue, interval: interval)
            venues.append(venue)
        }
        guard !venues.isEmpty else {
            throw .usage("no venue to record: none of them can give tickers; see 'agg exchanges'")
        }
        var premiumCurrency: String?
        if premium {
            premiumCurrency = "KRW"
            let hasLocal = venues.contains { $0.currency == "KRW" && $0.markets.isEmpty }
            let hasGlobal = venues.contains { PremiumBoard.globalQuotes.contains($0.currency) && $0.markets.isEmpty }
            guard hasLocal, hasGlobal else {
                throw .usage(
                    "--premium needs a venue quoting in KRW and a global one, each with an all-tickers request; "
                        + "recording: " + venues.map(\.id).joined(separator: ", "))
            }
        }
        let rateQuotes = Array(Set(venues.map(\.currency) + (premiumCurrency.map { [$0] } ?? []))).sorted()
        return Plan(
            venues: venues, fxSources: registry.descriptors(supporting: .fxRates), symbols: Set(symbols),
            premiumCurrency: premiumCurrency, rateQuotes: rateQuotes)
    }

    /// Ticks between two fetches of `venue`: its requests take `requestsPerFetch / rate` seconds
    /// of its allowance, and a tick comes every `interval` seconds.
    static func everyTicks(_ venue: Venue, interval: Double) -> Int {
        let rate = venue.descriptor.requestsPerSecond
        guard rate > 0, interval > 0 else { return 1 }
        let seconds = Double(venue.requestsPerFetch) / rate
        return max(1, Int((seconds / interval - 1e-9).rounded(.up)))
    }

    /// Runs ticks every `settings.interval` until `count` ticks are done or a stop signal comes;
    /// a tick in flight when the signal comes is finished and stored first. Prunes the history
    /// in the background in small batches. Calls `report` after every tick.
    package func run(
        _ plan: Plan, count: Int?, interrupts: AsyncStream<Void>,
        report: @escaping @Sendable (TickReport, Totals) -> Void
    ) async -> Totals {
        let stop = StopSwitch()
        // The listener only flips the switch: the tick in flight is never cancelled.
        let listener = Task {
            for await _ in interrupts {
                stop.request()
                break
            }
        }
        let totals = await loop(plan, count: count, stop: stop, report: report)
        listener.cancel()
        return totals
    }

    private func loop(
        _ plan: Plan, count: Int?, stop: StopSwitch, report: @escaping @Sendable (TickReport, Totals) -> Void
    ) async -> Totals {
        var state = State()
        var totals = Totals()
        var pruning: Task<Void, Never>?
        let pruned = PruneCount()
        let intervalMilliseconds = Int64((settings.interval * 1000).rounded())
        // The schedule runs on the monotonic clock, so that a step of the wall clock (NTP, an
        // operator) neither stalls nor rushes the ticks; each tick is stamped with the wall clock.
        let monotonic = { Int64((clock.retry.now() * 1000).rounded()) }
        var slot = monotonic()
        var number = 0
        var lastTime: Timestamp?
        if let streams { await streams.waitUntilReady(within: settings.venueDeadline, clock: clock) }
        while !stop.isRequested {
            number += 1
            let tick = await self.tick(plan, number: number, state: &state)
            lastTime = tick.time
            totals.ticks += 1
            totals.rows += tick.rows
            totals.failures += tick.failures.count + (tick.storeError == nil ? 0 : 1)
            totals.skips += tick.skipped.count
            totals.badEntries += tick.skippedEntries.count
            totals.lastFailed = !tick.failures.isEmpty || tick.storeError != nil
            totals.pruned = pruned.total
            totals.events += tick.events?.events.count ?? 0
            if let retain = settings.retainSeconds, (number - 1) % max(1, settings.pruneEveryTicks) == 0,
                !pruned.isRunning
            {
                pruning = prune(retaining: retain, now: tick.time, into: pruned)
            }
            report(tick, totals)
            if let count, number >= count { break }
            // The next slot on the schedule that is still ahead: a late tick skips slots rather
            // than running ticks back to back.
            let now = monotonic()
            slot += intervalMilliseconds
            if slot <= now {
                slot += ((now - slot) / intervalMilliseconds + 1) * intervalMilliseconds
            }
            let wait = Double(slot - now) / 1000
            guard await stop.sleep(wait, clock: clock) else { break }
        }
        // A stop signal cuts a prune pass short between batches; after the last of `count`
        // ticks the pass finishes, and one more runs up to the last tick's cutoff.
        if let pruning {
            if stop.isRequested { pruning.cancel() }
            await pruning.value
        }
        if !stop.isRequested, let retain = settings.retainSeconds, let last = lastTime {
            await prune(retaining: retain, now: last, into: pruned).value
        }
        totals.pruned = pruned.total
        do throws(AggError) {
            try await store.releaseVenues(holder: holder)
        } catch {
            report(TickReport(number: number, time: clock.now(), storeError: error), totals)
        }
        return totals
    }

    /// Deletes history older than `retain` seconds in batches of `settings.pruneBatch`, one
    /// short transaction each, in a task of its own, counting into `count`; a failed batch ends
    /// the pass (the next pass tries again). The age is measured by the store's clock where it
    /// has one (a shared PostgreSQL's `now()`), else from `now`, the tick's time.
    private func prune(retaining retain: Int64, now: Timestamp, into count: PruneCount) -> Task<Void, Never> {
        let store = self.store
        let batch = settings.pruneBatch
        count.start()
        return Task {
            defer { count.finish() }
            while !Task.isCancelled {
                let deleted: Int
                do throws(AggError) {
                    deleted = try await store.prune(retainingSeconds: retain, now: now, limit: batch)
                } catch {
                    break
                }
                count.add(deleted)
                if deleted < batch { break }
                await Task.yield()
            }
        }
    }

    /// One tick: with `--events`, the event sources due are observed meanwhile, each stored
    /// in its own transaction (their leases are not needed: the store records a change once
    /// however many recorders observe it).
    func tick(_ plan: Plan, number: Int, state: inout State) async -> TickReport {
        guard let events else { return await tickVenues(plan, number: number, state: &state) }
        let due = state.events.due(events.observer.schedules, at: clock.retry.now())
        async let answers = events.observe(due)
        var report = await tickVenues(plan, number: number, state: &state)
        report.events = EventRecording.settle(due, await answers, schedule: &state.events)
        return report
    }

    /// Claims the venues, fetches those due, and stores what answered in one transaction.
    private func tickVenues(_ plan: Plan, number: Int, state: inout State) async -> TickReport {
        let now = clock.now()
        var report = TickReport(number: number, time: now)
        let leaseEnd = Timestamp(
            millisecondsSince1970: now.millisecondsSince1970
                + Int64((settings.interval * settings.leaseIntervals * 1000).rounded()))
        let wanted = plan.venues.map(\.id) + plan.fxSources.map(\.id)
        let held: Set<String>
        do throws(AggError) {
            held = try await store.claimVenues(wanted, holder: holder, now: now, expiry: leaseEnd)
        } catch {
            report.storeError = error
            return report
        }
        report.heldElsewhere = wanted.filter { !held.contains($0) }

        var due: [Venue] = []
        var quotes: [Quote] = []
        for venue in plan.venues where held.contains(venue.id) {
            // A streamed venue gives what its stream holds at this moment, every tick (it costs
            // no request); REST only while the stream has nothing to give (starting, or down
            // and reconnecting), within the venue's rate limit as without streams.
            if let streams, streams.venues.contains(venue.id) {
                switch streams.take(venue.id) {
                case .streamed(let sampled):
                    quotes += sampled
                    report.answered.append(venue.id)
                    report.streamed.append(venue.id)
                    continue
                case .notFresh(let error):
                    report.failures.append(Failure(venue: venue.id, error: error))
                    continue
                case .rest:
                    break
                }
            }
            let since = state.sinceFetch[venue.id].map { $0 + 1 } ?? venue.everyTicks
            if since >= venue.everyTicks {
                due.append(venue)
                state.sinceFetch[venue.id] = 0
            } else {
                report.skipped.append(venue.id)
                state.sinceFetch[venue.id] = since
            }
        }
        let fxDue = state.fx.due(plan.fxSources, at: now).filter { held.contains($0.id) }

        async let venueAnswers = concurrentMap(due) { venue in
            VenueAnswer(venue: venue.id, outcome: await fetch(venue))
        }
        async let fxAnswers = concurrentMap(fxDue) { descriptor in
            FXAnswer(source: descriptor.id, outcome: await fetchRates(descriptor))
        }
        for answer in await venueAnswers {
            switch answer.outcome {
            case .success(let answered):
                quotes += answered.values
                report.skippedEntries += answered.skipped.filter { $0.concerns(plan.symbols) }
                report.answered.append(answer.venue)
            case .failure(let error): report.failures.append(Failure(venue: answer.venue, error: error))
            }
        }
        var fresh: [RateTable] = []
        for answer in await fxAnswers {
            state.fx.record(answer.source, answer.outcome, at: now)
            switch answer.outcome {
            case .success(let table):
                fresh.append(table)
                report.answered.append(answer.source)
            case .failure(let error): report.failures.append(Failure(venue: answer.source, error: error))
            }
        }

        var recorded = RecordedTick(time: now)
        recorded.prices = quotes.compactMap { quote in
            guard plan.symbols.isEmpty || plan.symbols.contains(quote.market.base) else { return nil }
            return PricePoint(time: now, quote: quote)
        }
        for table in fresh {
            for quote in plan.rateQuotes where quote != table.base {
                guard let rate = table.rates[quote] else { continue }
                recorded.rates.append(
                    RatePoint(time: now, source: table.source, base: table.base, quote: quote, rate: rate))
            }
        }
        if let currency = plan.premiumCurrency, !quotes.isEmpty {
            switch premiums(quotes, currency: currency, tables: state.fx.tables, plan: plan, now: now) {
            case .success(let points): recorded.premiums = points
            case .failure(let error): report.failures.append(Failure(venue: "premium", error: error))
            }
        }
        do throws(AggError) {
            // The rows the store wrote, not the points given: a lease check may refuse some.
            let written = try await store.recordCountingRows(recorded)
            report.prices = written.prices
            report.rates = written.rates
            report.premiums = written.premiums
        } catch {
            report.storeError = error
        }
        report.recorded = recorded
        return report
    }

    /// The premium points of the board made from this tick's `quotes`: each local venue's
    /// premium on the FX basis (`usd`) and the USDT basis (`usdt`).
    private func premiums(
        _ quotes: [Quote], currency: String, tables: [RateTable], plan: Plan, now: Timestamp
    ) -> Result<[PremiumPoint], AggError> {
        // The FX rate's age is measured from the newest ticker it converts, never past the real
        // clock, as the premium board does: now for live answers, the recorded moment for --offline.
        let pricesTime = FXChoice.ageReference(quotes: quotes, now: now)
        let fx: RateTable
        do throws(AggError) {
            fx = try FXChoice.choose(
                from: tables, named: nil, quote: currency, now: pricesTime,
                maximumAgeSeconds: settings.maximumFXAgeSeconds)
        } catch {
            return .failure(error)
        }
        let board = PremiumBoard(
            currency: currency, quotes: quotes,
            fx: RateValue(value: fx.rates[currency] ?? 1, source: fx.source, asOf: fx.asOf))
        var points: [PremiumPoint] = []
        for row in board.rows where plan.symbols.isEmpty || plan.symbols.contains(row.base) {
            for venue in row.venues where venue.isLocal && !venue.isOutlier {
                if let percent = venue.premiumPercent {
                    points.append(
                        PremiumPoint(
                            time: now, exchange: venue.exchange, symbol: row.base, basis: "usd", fxSource: fx.source,
                            percent: percent))
                }
                if let percent = venue.usdtPremiumPercent {
                    points.append(
                        PremiumPoint(
                            time: now, exchange: venue.exchange, symbol: row.base, basis: "usdt",
                            fxSource: fx.source, percent: percent))
                }
            }
        }
        return .success(points)
    }

    private struct VenueAnswer: Sendable {
        var venue: String
        var outcome: Result<BulkAnswer<Quote>, AggError>
    }

    private struct FXAnswer: Sendable {
        var source: String
        var outcome: Result<RateTable, AggError>
    }

    /// A venue's tickers within the deadline, with the entries of an all-tickers answer that
    /// were skipped; each quote carries when it was received (the recorder's clock when the
    /// answer came), from which its age is told when the venue sends no time of its own.
    private func fetch(_ venue: Venue) async -> Result<BulkAnswer<Quote>, AggError> {
        let answer = await fetchAnswer(venue)
        guard case .success(var answered) = answer else { return answer }
        let received = clock.now()
        for index in answered.values.indices where answered.values[index].receivedAt == nil {
            answered.values[index].receivedAt = received
        }
        return .success(answered)
    }

    private func fetchAnswer(_ venue: Venue) async -> Result<BulkAnswer<Quote>, AggError> {
        let factory = self.factory
        return await withDeadline(venue.descriptor) { () throws(AggError) -> BulkAnswer<Quote> in
            let adapter = try factory.adapter(id: venue.id)
            if venue.markets.isEmpty { return try await adapter.allQuotesAnswer(quotedIn: venue.currency) }
            let results = await adapter.quotes(for: venue.markets)
            var quotes: [Quote] = []
            var firstError: AggError?
            for market in venue.markets {
                switch results[market] {
                case .success(let quote): quotes.append(quote)
                case .failure(let error): firstError = firstError ?? error
                case nil: break
                }
            }
            if quotes.isEmpty, let firstError { throw firstError }
            return BulkAnswer(values: quotes)
        }
    }

    /// An FX source's table within the deadline.
    private func fetchRates(_ descriptor: AdapterDescriptor) async -> Result<RateTable, AggError> {
        let factory = self.factory
        return await withDeadline(descriptor) { () throws(AggError) -> RateTable in
            try await factory.adapter(id: descriptor.id).rates(base: Conversion.fxBase)
        }
    }

    /// `operation`'s outcome, or a timeout naming the venue when it takes longer than
    /// `settings.venueDeadline` (the operation is then cancelled).
    private func withDeadline<Value: Sendable>(
        _ descriptor: AdapterDescriptor, _ operation: @escaping @Sendable () async throws(AggError) -> Value
    ) async -> Result<Value, AggError> {
        let seconds = settings.venueDeadline
        let timeout = AggError.timeout(venue: descriptor.id, url: factory.baseURL(for: descriptor), seconds: seconds)
        return await resultWithin(seconds: seconds + max(0, settings.deadlineGrace), or: timeout, operation)
    }
}

/// A request to stop, and the sleep between ticks that it cuts short.
final class StopSwitch: Sendable {
    private struct State {
        var requested = false
        var sleeper: Task<Void, Never>?
    }

    private let state = Mutex(State())

    var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks the loop to stop after the tick in flight, waking it from its sleep.
    func request() {
        let sleeper = state.withLock { state in
            state.requested = true
            return state.sleeper
        }
        sleeper?.cancel()
    }

    /// Sleeps `seconds` on `clock`; `false` when a stop was requested before or during the sleep.
    func sleep(_ seconds: Double, clock: RecorderClock) async -> Bool {
        let task = Task { _ = try? await clock.sleep(seconds) }
        let started = state.withLock { state in
            guard !state.requested else { return false }
            state.sleeper = task
            return true
        }
        if !started { task.cancel() }
        await task.value
        return state.withLock { state in
            state.sleeper = nil
            return !state.requested
        }
    }
}

/// Rows pruned so far, and whether a prune pass is running.
final class PruneCount: Sendable {
    private let state = Mutex((total: 0, running: false))

    var total: Int { state.withLock { $0.total } }
    var isRunning: Bool { state.withLock { $0.running } }

    func start() { state.withLock { $0.running = true } }
    func finish() { state.withLock { $0.running = false } }
    func add(_ rows: Int) { state.withLock { $0.total += rows } }
}
