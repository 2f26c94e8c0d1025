import AggCore
import FoundationEssentials

/// What one poll of `agg serve` fetched: every venue's tickers, every FX source's table and the
/// transfer status lists, or why each is missing. Immutable once published; every client is
/// answered from the latest one, so no client request reaches a venue.
package struct ServeSnapshot: Sendable {
    /// One venue's tickers in the currency polled: what its last request answered, and the
    /// last tickers it sent (kept through later failures, served marked stale).
    package struct Venue: Sendable {
        var currency: String
        /// The last request's outcome.
        var result: Result<[Quote], AggError>
        /// The last tickers the venue sent: this poll's, or an earlier poll's after a failure.
        var quotes: [Quote]
        /// When `quotes` were fetched; `nil` when the venue never answered.
        var fetched: Timestamp?
        var byMarket: [Market: Quote]
        /// The entries of the answer `quotes` came from that were skipped because they did not
        /// decode: each costs only its own market.
        var skipped: [SkippedEntry]
        /// Entries skipped in all the venue's answers since the start (a counter for `/metrics`).
        var skippedTotal: Int
        /// The markets whose stream is down now, and why (`apply(live:at:)`); empty for a
        /// polled venue.
        var down: [Market: AggError] = [:]
        /// The stream connections down now, and why; empty for a polled venue.
        var streamDown: [Int: AggError] = [:]

        /// A fresh answer at `time` (its tickers and the entries skipped), or a failure that
        /// keeps `previous`'s tickers.
        package init(
            currency: String, answer: Result<BulkAnswer<Quote>, AggError>, at time: Timestamp, previous: Venue? = nil
        ) {
            self.currency = currency
            skippedTotal = previous?.skippedTotal ?? 0
            switch answer {
            case .success(let answered):
                // Each quote carries when its answer arrived (a stream's quotes their own).
                var received = answered.values
                for index in received.indices where received[index].receivedAt == nil {
                    received[index].receivedAt = time
                }
                result = .success(received)
                quotes = received
                fetched = time
                skipped = answered.skipped
                skippedTotal += answered.skipped.count
            case .failure(let error):
                result = .failure(error)
                quotes = previous?.quotes ?? []
                fetched = previous?.fetched
                skipped = previous?.skipped ?? []
            }
            var byMarket: [Market: Quote] = [:]
            for quote in quotes where byMarket[quote.market] == nil { byMarket[quote.market] = quote }
            self.byMarket = byMarket
        }

        /// Whether the last request answered.
        var isFresh: Bool {
            if case .success = result { return true }
            return false
        }
    }

    /// 1 for the first publication, then one more for each (every venue's answer is published
    /// as it comes, so a poll publishes several).
    var generation: Int
    /// When it was published.
    var time: Timestamp
    var venues: [String: Venue]
    var fx: [String: Result<RateTable, AggError>]
    /// When each FX table was fetched (tables are kept between polls until their source is due).
    var fxFetched: [String: Timestamp]
    /// The last table each FX source sent, kept through later failures (for the metrics).
    var fxTables: [String: RateTable] = [:]
    var transfers: [String: Result<[TransferStatus], AggError>]

    /// The venues and FX sources whose last request failed (or that have not answered yet),
    /// among `ids`, sorted.
    func stale(among ids: Set<String>) -> [String] { ids.filter { !isUp($0) }.sorted() }

    /// Whether `source` answered its last request (venue or FX source).
    func isUp(_ source: String) -> Bool {
        if let venue = venues[source] { if case .success = venue.result { return true } else { return false } }
        if let table = fx[source] { if case .success = table { return true } else { return false } }
        if let list = transfers[source] { if case .success = list { return true } }
        return false
    }
}

/// A venue as the snapshot knows it: the CLI's services run unchanged on top of it, so that
/// every endpoint answers exactly what the command would for the same data.
struct SnapshotAdapter: VenueAdapter {
    let descriptor: AdapterDescriptor
    let snapshot: ServeSnapshot

    /// The venue's descriptor, asked market by market: the snapshot holds no batch endpoint,
    /// and each market keeps its own answer (`quote(for:)`).
    init(descriptor: AdapterDescriptor, snapshot: ServeSnapshot) {
        var single = descriptor
        single.batching = .single
        self.descriptor = single
        self.snapshot = snapshot
    }

    private var id: String { descriptor.id }

    func quote(for market: Market) async throws(AggError) -> Quote {
        guard let venue = snapshot.venues[id] else { throw .unsupported(venue: id, capability: .ticker) }
        if case .failure(let error) = venue.result { throw error }
        guard let quote = venue.byMarket[market] else {
            // A market whose entry of the venue's answer was skipped fails with the entry's error.
            if let entry = venue.skipped.first(where: { $0.market == market }) { throw entry.error }
            throw .notListed(
                venue: id, market: market, code: "",
                message: "not among the \(venue.currency) markets agg serve polls")
        }
        return quote
    }

    /// The venue's tickers from the snapshot, with the entries of its answer that were skipped.
    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        guard let venue = snapshot.venues[id], venue.currency == request.currency else {
            throw .unsupported(venue: id, capability: .allTickers)
        }
        return BulkAnswer(values: try venue.result.get(), skipped: venue.skipped)
    }

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        guard let table = snapshot.fx[id] else { throw .unsupported(venue: id, capability: .fxRates) }
        let answered = try table.get()
        guard answered.base == request.base else {
            throw .fxUnavailable("agg serve polls \(id) for \(answered.base) rates only, not \(request.base)")
        }
        return answered
    }

    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        guard let list = snapshot.transfers[id] else { throw .unsupported(venue: id, capability: .transferStatus) }
        return try list.get()
    }
}

/// Fails every request: the services behind `agg serve`'s endpoints reach venues only through
/// `SnapshotAdapter`, never the network.
struct NoNetworkHTTPClient: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw TransportError.connection(url: request.url, detail: "agg serve answers from its snapshot only")
    }
}

extension AdapterRegistry {
    /// The same venues (descriptors and origins), answering from `snapshot`.
    func answering(from snapshot: ServeSnapshot) -> AdapterRegistry {
        AdapterRegistry(
            registrations.map { registration in
                let descriptor = registration.descriptor
                return AdapterRegistration(descriptor: descriptor, origin: registration.origin) { _ in
                    SnapshotAdapter(descriptor: descriptor, snapshot: snapshot)
                }
            })
    }

    /// Only the venues with `ids`.
    func only(_ ids: Set<String>) -> AdapterRegistry {
        AdapterRegistry(registrations.filter { ids.contains($0.descriptor.id) })
    }
}
