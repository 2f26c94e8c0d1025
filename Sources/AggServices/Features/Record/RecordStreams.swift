import AggCore

/// `agg record --stream`: the recorded venues that stream, followed for the whole run by one
/// `LiveQuoteService`, whose state each tick samples.
///
/// At a tick a streamed venue gives what `sample` says: while its stream is live, the latest
/// fresh quote of each market (no REST request); while it polls over REST after the fallback
/// time, the quotes those polls brought (the service's polls, not the tick's); while it is
/// starting or down (reconnecting), nothing, and the tick asks REST itself as it does without
/// `--stream`. A quote that is not fresh (its stream went down, its poll failed) is never
/// recorded: it is left out and its venue reported failed when no market had a fresh one.
package final class RecordStreams: Sendable {
    /// What a tick does about one streamed venue.
    enum Take: Sendable {
        /// Record these fresh quotes (none not fresh, or some fresh beside them).
        case streamed([Quote])
        /// No market of the venue has a fresh quote: report why.
        case notFresh(AggError)
        /// The stream has nothing to give (starting, or down and reconnecting): ask REST.
        case rest
    }

    /// The venues followed.
    package let venues: Set<String>
    private let book: LiveQuoteBook
    private let runner: Task<Void, Never>
    private let reader: Task<Void, Never>

    /// Follows `request`'s venues with `service` until `stop()`; the venues' lines (stream
    /// down, back, polling over REST) go to `notice` as they come.
    package init(
        service: LiveQuoteService, request: LiveQuoteRequest, notice: @escaping @Sendable (String) -> Void
    ) {
        venues = Set(request.plan.requests.map(\.venue))
        let (updates, continuation) = AsyncStream<LiveQuoteUpdate>.makeStream()
        let book = LiveQuoteBook(plan: request.plan, continuation: continuation) { [clock = service.clock] in
            clock.wallTime
        }
        self.book = book
        runner = Task {
            await service.run(request, book: book)
            continuation.finish()
        }
        // The updates are read as they come, so that none piles up: record samples the book.
        reader = Task {
            for await update in updates {
                if case .notice(let line) = update { notice(line) }
            }
        }
    }

    /// Samples `book`, which the caller feeds (tests play a stream's events into it).
    init(book: LiveQuoteBook) {
        venues = Set(book.keys.map(\.venue))
        self.book = book
        runner = Task {}
        reader = Task {}
    }

    /// What the tick takes of `venue` now.
    func take(_ venue: String) -> Take {
        let sample = book.sample(venue: venue)
        switch sample.link {
        case .starting, .down: return .rest
        case .live, .polling:
            if sample.fresh.isEmpty, let error = sample.notFresh.first { return .notFresh(error) }
            return .streamed(sample.fresh)
        }
    }

    /// Whether every venue is past its start: live with every market heard of, or down.
    var isReady: Bool {
        venues.allSatisfy { venue in
            let sample = book.sample(venue: venue)
            switch sample.link {
            case .starting: return false
            case .live: return sample.complete
            case .down, .polling: return true
            }
        }
    }

    /// Waits until `isReady`, at most `seconds` on `clock`, so that the first tick records the
    /// streams' first values rather than asking REST while they connect.
    func waitUntilReady(within seconds: Double, clock: RecorderClock) async {
        let deadline = clock.retry.now() + seconds
        while !isReady, clock.retry.now() < deadline {
            guard (try? await clock.sleep(0.02)) != nil else { return }
        }
    }

    /// Stops following the streams: their connections close as their tasks end.
    package func stop() {
        runner.cancel()
        reader.cancel()
    }
}
