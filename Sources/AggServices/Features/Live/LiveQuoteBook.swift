import AggCore
import AggOptions
import Synchronization

/// The live quote service's state: the latest quote of every (venue, market) asked, whether it
/// is fresh, what each venue's streams have said, and the one place updates are yielded (every
/// change and its update happen under one lock, so the board a consumer gets is never older
/// than the change it comes with).
final class LiveQuoteBook: Sendable {
    /// One (venue, market) pair.
    struct Key: Hashable, Sendable {
        var venue: String
        var market: Market
    }

    /// What is known of one pair.
    struct Entry: Sendable {
        var quote: Quote?
        /// Why the quote is not fresh (its stream is down, or its REST poll failed); `nil` when
        /// it is.
        var error: AggError?
    }

    /// What has been said of one venue's streams.
    struct VenueState: Sendable {
        /// Connections live now (subscribed, and not down since).
        var up: Set<Int> = []
        /// Connections down now.
        var down: Set<Int> = []
        /// Connections polling REST now.
        var polling: Set<Int> = []
        /// Whether the outage in progress has been reported (once per outage of the venue).
        var downSaid = false
        var pollingSaid = false
        var malformed = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var venues: [String: VenueState] = [:]
    }

    /// The pairs asked, in the plan's order.
    let keys: [Key]
    private let asked: Set<Key>
    private let state = Mutex(State())
    private let continuation: AsyncStream<LiveQuoteUpdate>.Continuation
    private let wallTime: @Sendable () -> Timestamp

    init(
        plan: QuoteService.Plan, continuation: AsyncStream<LiveQuoteUpdate>.Continuation,
        wallTime: @escaping @Sendable () -> Timestamp
    ) {
        keys = plan.requests.flatMap { request in request.markets.map { Key(venue: request.venue, market: $0) } }
        asked = Set(keys)
        self.continuation = continuation
        self.wallTime = wallTime
    }

    /// Fresh quotes of `venue` (from a stream frame or a REST answer): the ones asked for that
    /// differ from what is shown (the receive time aside) or were not fresh are an update.
    func received(_ quotes: [Quote], venue: String) {
        state.withLock { state in
            var changed: [Key] = []
            for quote in quotes {
                let key = Key(venue: venue, market: quote.market)
                guard asked.contains(key) else { continue }
                let old = state.entries[key]
                if let old, old.error == nil, let shown = old.quote, Self.same(shown, quote) { continue }
                state.entries[key] = Entry(quote: quote, error: nil)
                if !changed.contains(key) { changed.append(key) }
            }
            yield(changed, state)
        }
    }

    /// The REST answers of a poll or a gap fill: the quotes are fresh, a failure marks its
    /// market's last quote not fresh (or shows the error when there is none).
    func polled(_ outcomes: [QuoteService.Outcome], venue: String) {
        var quotes: [Quote] = []
        var failures: [(Market, AggError)] = []
        for outcome in outcomes {
            switch outcome.result {
            case .success(let quote): quotes.append(quote)
            case .failure(let error): failures.append((outcome.market, error))
            }
        }
        received(quotes, venue: venue)
        guard !failures.isEmpty else { return }
        state.withLock { state in
            var changed: [Key] = []
            for (market, error) in failures {
                let key = Key(venue: venue, market: market)
                guard asked.contains(key) else { continue }
                if state.entries[key]?.error == error { continue }
                state.entries[key, default: Entry()].error = error
                changed.append(key)
            }
            yield(changed, state)
        }
    }

    /// Connection `connection` of `venue`, carrying `markets`, went down with `fault`: its quotes
    /// are no longer fresh, and the venue's line says so once per outage.
    func streamDown(venue: String, connection: Int, markets: [Market], fault: StreamFault, url: String) {
        state.withLock { state in
            var venueState = state.venues[venue, default: VenueState()]
            venueState.up.remove(connection)
            venueState.down.insert(connection)
            if !venueState.downSaid {
                venueState.downSaid = true
                continuation.yield(.notice("\(venue): stream down (\(Self.reason(fault))); reconnecting"))
            }
            state.venues[venue] = venueState
            let error = AggError.connection(venue: venue, url: url, detail: "stream down: \(Self.reason(fault))")
            var changed: [Key] = []
            for market in markets {
                let key = Key(venue: venue, market: market)
                guard var entry = state.entries[key], entry.error == nil else { continue }
                entry.error = error
                state.entries[key] = entry
                changed.append(key)
            }
            yield(changed, state)
        }
    }

    /// Connection `connection` of `venue` is live (again): once every connection of the venue
    /// is, and an outage was reported, the venue's line says the stream is back.
    func streamUp(venue: String, connection: Int) {
        state.withLock { state in
            var venueState = state.venues[venue, default: VenueState()]
            venueState.up.insert(connection)
            venueState.down.remove(connection)
            venueState.polling.remove(connection)
            if venueState.down.isEmpty, venueState.downSaid {
                venueState.downSaid = false
                venueState.pollingSaid = false
                continuation.yield(.notice("\(venue): stream back"))
            }
            state.venues[venue] = venueState
        }
    }

    /// Connection `connection` of `venue` has been without a stream for the fallback time: its
    /// markets are polled over REST, and the venue's line says so once per outage.
    func polling(venue: String, connection: Int, interval: Double) {
        state.withLock { state in
            var venueState = state.venues[venue, default: VenueState()]
            venueState.polling.insert(connection)
            if !venueState.pollingSaid {
                venueState.pollingSaid = true
                continuation.yield(
                    .notice("\(venue): no stream for a while; polling over REST every \(RateText.format(interval)) s"))
            }
            state.venues[venue] = venueState
        }
    }

    /// A message of `venue`'s stream that did not decode: counted and reported, nothing else.
    func malformed(venue: String, reason: String) {
        state.withLock { state in
            state.venues[venue, default: VenueState()].malformed += 1
            let total = state.venues[venue, default: VenueState()].malformed
            continuation.yield(.malformed(venue: venue, reason: reason, total: total))
        }
    }

    /// The malformed messages of `venue`'s stream so far.
    func malformedCount(venue: String) -> Int {
        state.withLock { $0.venues[venue]?.malformed ?? 0 }
    }

    /// A line for the user.
    func notice(_ line: String) {
        continuation.yield(.notice(line))
    }

    /// How a venue's streams stand, for a sampler.
    enum Link: Sendable, Equatable {
        /// No connection has been live yet.
        case starting
        /// Every connection that has spoken is live.
        case live
        /// A connection is down and reconnecting (not yet polled over REST).
        case down
        /// A connection has been down for the fallback time: its markets are polled over REST.
        case polling
    }

    /// What one venue shows at one moment (`agg record --stream` samples it at each tick).
    struct VenueSample: Sendable {
        var link: Link
        /// The latest fresh quote of each of the venue's markets that has one, in the plan's order.
        var fresh: [Quote]
        /// The markets whose last quote is not fresh (its stream is down, its REST poll
        /// failed), with why.
        var notFresh: [AggError]
        /// Whether every market asked of the venue has been heard of (a quote or an error).
        var complete: Bool
    }

    /// `venue` now: how its streams stand and its quotes, fresh or not.
    func sample(venue: String) -> VenueSample {
        state.withLock { state in
            let venueState = state.venues[venue] ?? VenueState()
            let link: Link =
                !venueState.polling.isEmpty
                ? .polling : !venueState.down.isEmpty ? .down : venueState.up.isEmpty ? .starting : .live
            var sample = VenueSample(link: link, fresh: [], notFresh: [], complete: true)
            for key in keys where key.venue == venue {
                guard let entry = state.entries[key] else {
                    sample.complete = false
                    continue
                }
                if let error = entry.error {
                    sample.notFresh.append(error)
                } else if let quote = entry.quote {
                    sample.fresh.append(quote)
                }
            }
            return sample
        }
    }

    /// The board now, in the plan's order.
    var board: [QuoteService.Outcome] {
        state.withLock { outcomes(keys, $0) }
    }

    private func yield(_ changed: [Key], _ state: State) {
        guard !changed.isEmpty else { return }
        continuation.yield(.quotes(changed: outcomes(changed, state), board: outcomes(keys, state)))
    }

    /// The outcomes of `keys` that have something to show: a fresh quote, or an error with the
    /// last quote (if any) standing in, marked stale with its age.
    private func outcomes(_ keys: [Key], _ state: State) -> [QuoteService.Outcome] {
        let now = wallTime()
        return keys.compactMap { key in
            guard let entry = state.entries[key] else { return nil }
            guard let error = entry.error else {
                guard let quote = entry.quote else { return nil }
                return QuoteService.Outcome(exchange: key.venue, market: key.market, result: .success(quote))
            }
            let stale = entry.quote.map { quote in
                let since = quote.receivedAt ?? quote.timestamp ?? now
                return StaleQuote(
                    quote: quote, fetchedAt: since,
                    ageSeconds: max(0, (now.millisecondsSince1970 - since.millisecondsSince1970) / 1000))
            }
            return QuoteService.Outcome(exchange: key.venue, market: key.market, result: .failure(error), stale: stale)
        }
    }

    /// Whether two quotes show the same thing (the receive time aside).
    static func same(_ left: Quote, _ right: Quote) -> Bool {
        var left = left
        var right = right
        left.receivedAt = nil
        right.receivedAt = nil
        return left == right
    }

    /// A fault as the venue's line says it: `closed with code 1006`.
    static func reason(_ fault: StreamFault) -> String {
        let text = fault.description
        return text.hasPrefix("stream ") ? String(text.dropFirst("stream ".count)) : text
    }
}
