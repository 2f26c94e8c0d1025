import AggCore
import FoundationEssentials
import Synchronization

/// What `agg serve` polls: each venue once per interval (its all-tickers request, or one
/// ticker per watched coin for a venue without one), each FX source while its table is stale,
/// and each transfer-status list.
struct ServePlan: Sendable {
    struct Venue: Sendable {
        var descriptor: AdapterDescriptor
        /// The currency asked for: the venue's home currency.
        var currency: String
        /// The coins asked one by one; `nil` for the all-tickers request.
        var coins: [String]?

        /// Requests one poll sends.
        var requests: Int { coins?.count ?? 1 }
    }

    var venues: [Venue]
    var fxSources: [AdapterDescriptor]
    var transferVenues: [AdapterDescriptor]

    /// Every id polled.
    var ids: Set<String> { Set(venues.map(\.descriptor.id) + fxSources.map(\.id) + transferVenues.map(\.id)) }

    /// `exchanges` (empty: every venue with a ticker), `fx` (empty: every FX source), and the
    /// coins for venues without an all-tickers request.
    init(registry: AdapterRegistry, exchanges: [String], fx: [String], coins: [String]) throws(AggError) {
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

/// Polls the plan and publishes each result as the new snapshot. Only the poller reaches the
/// venues; clients read the published snapshot.
final class ServePoller: Sendable {
    /// How long an FX table is reused between polls (unless its next update is due): FX
    /// sources update at most a few times a day, and some count every request against a quota.
    static let fxRefreshSeconds: Int64 = 300

    let plan: ServePlan
    private let factory: AdapterFactory
    private let now: @Sendable () -> Timestamp
    private let latest = Mutex<ServeSnapshot?>(nil)
    private let publish: @Sendable (ServeSnapshot) async -> Void

    init(
        plan: ServePlan, factory: AdapterFactory, now: @escaping @Sendable () -> Timestamp,
        publish: @escaping @Sendable (ServeSnapshot) async -> Void
    ) {
        self.plan = plan
        self.factory = factory
        self.now = now
        self.publish = publish
    }

    /// The snapshot published last, if any.
    var snapshot: ServeSnapshot? { latest.withLock { $0 } }

    /// Polls every interval until the task is cancelled: the next poll starts `interval` seconds
    /// after the previous one started (or at once when a poll took longer).
    func run(interval: Double) async {
        while !Task.isCancelled {
            let started = ContinuousClock.now
            await poll()
            let elapsed = ContinuousClock.now - started
            let rest = Duration.milliseconds(Int64(interval * 1000)) - elapsed
            if rest > .zero { try? await Task.sleep(for: rest) }
        }
    }

    /// One poll: every venue, stale FX source and transfer list at once; then the snapshot is
    /// published.
    @discardableResult
    func poll() async -> ServeSnapshot {
        let previous = snapshot
        let factory = self.factory
        let startedAt = now()
        async let venues = concurrentMap(plan.venues) { venue in await Self.fetch(venue, factory: factory) }
        let reusable = Dictionary(
            uniqueKeysWithValues: plan.fxSources.compactMap { source -> (String, RateTable)? in
                guard let previous, let fetched = previous.fxFetched[source.id],
                    case .success(let table) = previous.fx[source.id],
                    startedAt.millisecondsSince1970 - fetched.millisecondsSince1970 < Self.fxRefreshSeconds * 1000,
                    table.nextUpdate.map({ $0.millisecondsSince1970 > startedAt.millisecondsSince1970 }) ?? true
                else { return nil }
                return (source.id, table)
            })
        let stale = plan.fxSources.filter { reusable[$0.id] == nil }
        async let tables = concurrentResults(stale) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).rates(base: Conversion.fxBase).screened()
        }
        async let transfers = concurrentResults(plan.transferVenues) { descriptor throws(AggError) in
            try await factory.adapter(id: descriptor.id).transferStatus(coins: [])
        }
        var fx: [String: Result<RateTable, AggError>] = [:]
        var fxFetched: [String: Timestamp] = [:]
        for (id, table) in reusable {
            fx[id] = .success(table)
            fxFetched[id] = previous?.fxFetched[id]
        }
        for (descriptor, result) in zip(stale, await tables) {
            fx[descriptor.id] = result
            fxFetched[descriptor.id] = startedAt
        }
        var transferLists: [String: Result<[TransferStatus], AggError>] = [:]
        for (descriptor, result) in zip(plan.transferVenues, await transfers) { transferLists[descriptor.id] = result }
        var venueSnapshots: [String: ServeSnapshot.Venue] = [:]
        for (venue, fetched) in zip(plan.venues, await venues) { venueSnapshots[venue.descriptor.id] = fetched }
        let snapshot = ServeSnapshot(
            generation: (previous?.generation ?? 0) + 1, time: now(), venues: venueSnapshots, fx: fx,
            fxFetched: fxFetched, transfers: transferLists)
        latest.withLock { $0 = snapshot }
        await publish(snapshot)
        return snapshot
    }

    /// One venue's tickers: one all-tickers request, or one ticker per watched coin (the venue
    /// is up when any answered).
    private static func fetch(_ venue: ServePlan.Venue, factory: AdapterFactory) async -> ServeSnapshot.Venue {
        let id = venue.descriptor.id
        let currency = venue.currency
        guard let coins = venue.coins else {
            let result = await Result<[Quote], AggError>.catching { () throws(AggError) in
                try await factory.adapter(id: id).allQuotes(quotedIn: currency)
            }
            return ServeSnapshot.Venue(currency: currency, result: result)
        }
        let adapter: any ExchangeAdapter
        do throws(AggError) {
            adapter = try factory.adapter(id: id)
        } catch {
            return ServeSnapshot.Venue(currency: currency, result: .failure(error))
        }
        let markets = coins.map { Market(base: $0, quote: currency) }
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
        if quotes.isEmpty, let firstError {
            return ServeSnapshot.Venue(currency: currency, result: .failure(firstError))
        }
        return ServeSnapshot.Venue(currency: currency, result: .success(quotes))
    }
}
