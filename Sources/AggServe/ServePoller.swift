import AggCore
import AggServices
import FoundationEssentials
import Synchronization

/// What `agg serve` polls: each venue once per interval (its all-tickers request, or one
/// ticker per watched coin for a venue without one), each FX source when `FXSchedule` says it
/// is due, and each transfer-status list.
package struct ServePlan: Sendable {
    package struct Venue: Sendable {
        var descriptor: AdapterDescriptor
        /// The currency asked for: the venue's home currency.
        var currency: String
        /// The coins asked one by one; `nil` for the all-tickers request.
        var coins: [String]?

        /// Requests one poll sends.
        var requests: Int { coins?.count ?? 1 }

        package init(descriptor: AdapterDescriptor, currency: String, coins: [String]? = nil) {
            self.descriptor = descriptor
            self.currency = currency
            self.coins = coins
        }
    }

    var venues: [Venue]
    var fxSources: [AdapterDescriptor]
    var transferVenues: [AdapterDescriptor]

    /// Every id polled.
    var ids: Set<String> { Set(venues.map(\.descriptor.id) + fxSources.map(\.id) + transferVenues.map(\.id)) }

    /// `exchanges` (empty: every venue with a ticker), `fx` (empty: every FX source), and the
    /// coins for venues without an all-tickers request.
    package init(registry: AdapterRegistry, exchanges: [String], fx: [String], coins: [String]) throws(AggError) {
        var chosen: [AdapterDescriptor] = []
        for id in exchanges {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.ticker) else {
                throw .usage("\(descriptor.id) has no tickers to serve; see 'agg exchanges'")
            }
            if !chosen.contains(where: { $0.id == descriptor.id }) { chosen.append(descriptor) }
        }
        if exchanges.isEmpty { chosen = registry.descriptors(supporting: .ticker) }
        venues = chosen.map { descriptor in
            Venue(
                descriptor: descriptor, currency: descriptor.homeCurrency,
                coins: descriptor.supports(.allTickers) ? nil : coins)
        }
        var sources: [AdapterDescriptor] = []
        for id in fx {
            let descriptor = try registry.requireDescriptor(id: id)
            guard descriptor.supports(.fxRates) else { throw .usage("\(descriptor.id) is not an FX source") }
            if !sources.contains(where: { $0.id == descriptor.id }) { sources.append(descriptor) }
        }
        fxSources = fx.isEmpty ? registry.descriptors(supporting: .fxRates) : sources
        transferVenues = chosen.filter { $0.supports(.transferStatus) }
    }

    /// The shortest interval that keeps every venue within its published rate.
    var minimumInterval: Double {
        let venueFloors = venues.map { venue in
            Double(venue.requests + (venue.descriptor.supports(.transferStatus) ? 1 : 0))
                / max(venue.descriptor.requestsPerSecond, 0.001)
        }
        let fxFloors = fxSources.map { 1 / max($0.requestsPerSecond, 0.001) }
        return max(1, (venueFloors + fxFloors).max() ?? 1)
    }
}

/// Polls the plan and publishes what comes back. Only the poller reaches the venues; clients
/// read the published snapshot.
///
/// Each venue, due FX source and transfer list is asked at once, each under `venueDeadline`
/// (under the interval in `run`), and each answer is published as it comes, so that a slow or
/// hung venue delays only itself. A venue that fails keeps its last tickers, served marked stale.
/// FX sources are asked only when `FXSchedule` says they are due.
final class ServePoller: Sendable {
    let plan: ServePlan
    /// Seconds each venue, FX source and transfer list has to answer in one poll.
    let venueDeadline: Double
    private let factory: AdapterFactory
    private let now: @Sendable () -> Timestamp
    private let state = Mutex(State())
    /// Called with each snapshot, and whether it is the poll's last (the board is streamed
    /// once a poll, from the last).
    private let publish: @Sendable (ServeSnapshot, _ pollEnded: Bool) async -> Void
    /// Whether a venue is left to its stream (`ServeStreams`): then polls skip it.
    private let leftToStream: @Sendable (String) -> Bool

    private struct State {
        var snapshot: ServeSnapshot?
        var fx = FXSchedule()
    }

    /// One request of a poll, under the poll's deadline.
    private enum Job: Sendable {
        case venue(ServePlan.Venue)
        case fx(AdapterDescriptor)
        case transfers(AdapterDescriptor)

        func run(factory: AdapterFactory, seconds: Double) async -> Arrival {
            switch self {
            case .venue(let venue):
                let timeout = ServePoller.timeout(venue.descriptor, factory: factory, seconds: seconds)
                let result = await ServeDeadline.outcome(within: seconds, or: timeout) { () throws(AggError) in
                    try await ServePoller.fetch(venue, factory: factory)
                }
                return .venue(venue, result)
            case .fx(let source):
                let timeout = ServePoller.timeout(source, factory: factory, seconds: seconds)
                let result = await ServeDeadline.outcome(within: seconds, or: timeout) { () throws(AggError) in
                    try await factory.adapter(id: source.id).rates(base: Conversion.fxBase).screened()
                }
                return .fx(source.id, result)
            case .transfers(let venue):
                let timeout = ServePoller.timeout(venue, factory: factory, seconds: seconds)
                let result = await ServeDeadline.outcome(within: seconds, or: timeout) { () throws(AggError) in
                    try await factory.adapter(id: venue.id).transferStatus(coins: [])
                }
                return .transfers(venue.id, result)
            }
        }
    }

    /// One answer of a poll.
    private enum Arrival: Sendable {
        case venue(ServePlan.Venue, Result<BulkAnswer<Quote>, AggError>)
        case fx(String, Result<RateTable, AggError>)
        case transfers(String, Result<[TransferStatus], AggError>)
        /// Changes from the venues' streams (`ServeStreams`).
        case live([QuoteService.Outcome])
        /// A connection of a venue's stream is down (why), or live again (`nil`).
        case stream(venue: String, connection: Int, down: AggError?)
    }

    init(
        plan: ServePlan, factory: AdapterFactory, venueDeadline: Double, now: @escaping @Sendable () -> Timestamp,
        publish: @escaping @Sendable (ServeSnapshot, _ pollEnded: Bool) async -> Void,
        leftToStream: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.leftToStream = leftToStream
        self.plan = plan
        self.factory = factory
        self.venueDeadline = venueDeadline
        self.now = now
        self.publish = publish
    }

    /// The snapshot published last, if any.
    var snapshot: ServeSnapshot? { state.withLock { $0.snapshot } }

    /// The deadline of each venue in a poll every `interval` seconds: `venueDeadline`, but at
    /// most four fifths of the interval, so that a hung venue never delays the next poll.
    func deadline(interval: Double) -> Double { min(venueDeadline, interval * 0.8) }

    /// Polls every interval until the task is cancelled: the next poll starts `interval` seconds
    /// after the previous one started (or at once when a poll took longer).
    /// With `waitFirst`, the first poll is one interval away (one was made already).
    func run(interval: Double, waitFirst: Bool = false) async {
        let deadline = deadline(interval: interval)
        if waitFirst { try? await Task.sleep(for: .milliseconds(Int64(interval * 1000))) }
        while !Task.isCancelled {
            let started = ContinuousClock.now
            await poll(deadline: deadline)
            let elapsed = ContinuousClock.now - started
            let rest = Duration.milliseconds(Int64(interval * 1000)) - elapsed
            if rest > .zero { try? await Task.sleep(for: rest) }
        }
    }

    /// One poll: every venue, due FX source and transfer list at once, each published as it
    /// answers (or fails, at its deadline). Returns the last snapshot published.
    @discardableResult
    func poll(deadline: Double? = nil) async -> ServeSnapshot {
        let seconds = deadline ?? venueDeadline
        let factory = self.factory
        let startedAt = now()
        let dueFX = state.withLock { $0.fx.due(plan.fxSources, at: startedAt) }
        let jobs =
            plan.venues.filter { !leftToStream($0.descriptor.id) }.map(Job.venue) + dueFX.map(Job.fx)
            + plan.transferVenues.map(Job.transfers)
        // Each answer is published as it comes, one at a time, in the order they come.
        let (arrivals, delivery) = AsyncStream.makeStream(of: Arrival.self)
        async let fetched = concurrentMap(jobs) { job in
            delivery.yield(await job.run(factory: factory, seconds: seconds))
        }
        var left = jobs.count
        if left > 0 {
            for await arrival in arrivals {
                left -= 1
                await publish(merge(arrival, askedAt: startedAt), left == 0)
                if left == 0 { break }
            }
        }
        _ = await fetched
        delivery.finish()
        if let snapshot { return snapshot }
        let empty = merge(nil, askedAt: startedAt)
        await publish(empty, true)
        return empty
    }

    /// The next snapshot: the last one with `arrival` in it, one generation on.
    private func merge(_ arrival: Arrival?, askedAt: Timestamp) -> ServeSnapshot {
        let time = now()
        return state.withLock { state in
            var next =
                state.snapshot
                ?? ServeSnapshot(generation: 0, time: time, venues: [:], fx: [:], fxFetched: [:], transfers: [:])
            next.generation += 1
            next.time = time
            switch arrival {
            case .venue(let venue, let result)?:
                let id = venue.descriptor.id
                next.venues[id] = ServeSnapshot.Venue(
                    currency: venue.currency, answer: result, at: time, previous: next.venues[id])
            case .fx(let id, let result)?:
                state.fx.record(id, result, at: askedAt)
                next.fx[id] = result
                next.fxFetched[id] = state.fx.entry(id)?.fetched
                next.fxTables[id] = state.fx.entry(id)?.table
            case .transfers(let id, let result)?:
                next.transfers[id] = result
            case .live(let outcomes)?:
                next.apply(live: outcomes, at: time)
            case .stream(let venue, let connection, let down)?:
                next.venues[venue]?.stream(connection: connection, down: down, at: time)
            case nil: break
            }
            state.snapshot = next
            return next
        }
    }

    /// Publishes changes from the venues' streams as one snapshot, its board made again and
    /// pushed to `/v1/stream` (`ServeStreams` paces them).
    func publishLive(_ outcomes: [QuoteService.Outcome]) async {
        guard !outcomes.isEmpty else { return }
        await publish(merge(.live(outcomes), askedAt: now()), true)
    }

    /// Publishes that a connection of `venue`'s stream is down (or live again, `down` nil).
    func publishStream(venue: String, connection: Int, down: AggError?) async {
        await publish(merge(.stream(venue: venue, connection: connection, down: down), askedAt: now()), true)
    }

    fileprivate static func timeout(_ descriptor: AdapterDescriptor, factory: AdapterFactory, seconds: Double)
        -> AggError
    {
        .timeout(venue: descriptor.id, url: factory.baseURL(for: descriptor), seconds: seconds)
    }

    /// One venue's tickers: one all-tickers request (with the entries of its answer that were
    /// skipped), or one ticker per watched coin (the venue is up when any answered).
    fileprivate static func fetch(_ venue: ServePlan.Venue, factory: AdapterFactory) async throws(AggError)
        -> BulkAnswer<Quote>
    {
        let adapter = try factory.adapter(id: venue.descriptor.id)
        guard let coins = venue.coins else { return try await adapter.allQuotesAnswer(quotedIn: venue.currency) }
        let markets = coins.map { Market(base: $0, quote: venue.currency) }
        let results = await adapter.quotes(for: markets)
        var quotes: [Quote] = []
        var firstError: AggError?
        for market in markets {
            switch results[market] {
            case .success(let quote): quotes.append(quote)
            case .failure(let error) where error.isNotListed: continue
            case .failure(let error): firstError = firstError ?? error
            case nil: continue
            }
        }
        if quotes.isEmpty, let firstError { throw firstError }
        return BulkAnswer(values: quotes)
    }
}
