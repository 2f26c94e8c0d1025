import AggCore
import AggServer
import AggServices
import FoundationEssentials
import Synchronization

/// `agg serve`'s streams: after the first poll, every venue of the plan that declares `.stream`
/// (and answered that poll) is followed on its stream for every market the poll saw, through
/// the live quote service; the poller stops asking it. Each change is merged into the snapshot
/// and published (board made again and pushed to `/v1/stream`) at most `perSecond` times a
/// second. A venue whose stream is down is served stale, as a venue whose poll failed, until
/// its stream (or the live quote service's REST fallback after 60 s) answers again.
final class ServeStreams: Sendable {
    /// The venues to follow, when their first poll answered.
    let venues: Set<String>
    let gauges: VenueStreamGauges
    private let followed = Mutex<Set<String>>([])

    init(venues: Set<String>, gauges: VenueStreamGauges) {
        self.venues = venues
        self.gauges = gauges
    }

    /// Whether the poller leaves `venue` to its stream.
    func takesOver(_ venue: String) -> Bool {
        followed.withLock { $0.contains(venue) }
    }

    /// Follows the streams of the venues of `snapshot` (the first poll's) until cancelled,
    /// publishing through `poller`.
    func run(
        after snapshot: ServeSnapshot, service: LiveQuoteService, poller: ServePoller, interval: Double,
        clock: any StreamClock, perSecond: Int = 4
    ) async {
        var markets: [(venue: String, markets: [Market])] = []
        var urls: [String: String] = [:]
        for venue in poller.plan.venues where venues.contains(venue.descriptor.id) {
            guard let answered = snapshot.venues[venue.descriptor.id], answered.isFresh else { continue }
            markets.append((venue.descriptor.id, answered.quotes.map(\.market)))
            urls[venue.descriptor.id] = service.streamURL(venue.descriptor)
        }
        guard !markets.isEmpty else { return }
        followed.withLock { $0 = Set(markets.map(\.venue)) }
        var request = LiveQuoteRequest(markets: markets, interval: interval)
        let gauges = self.gauges
        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        request.observesStreams = { venue, connection, state in
            gauges.record(venue, connection: connection, state)
            continuation.yield(.state(venue: venue, connection: connection, state))
        }
        for entry in markets { gauges.follow(entry.venue) }
        let updates = service.updates(request)
        let feeder = Task {
            for await update in updates { continuation.yield(.update(update)) }
            continuation.finish()
        }
        var timer: Task<Void, Never>?
        defer {
            feeder.cancel()
            timer?.cancel()
            continuation.finish()
        }
        var pacer = RedrawPacer(perSecond: perSecond)
        var pending: [QuoteService.Outcome] = []
        for await input in inputs {
            switch input {
            case .update(.quotes(let changed, _)):
                pending += changed
                if pacer.drawsNow(on: clock, timer: &timer, due: { _ = continuation.yield(.due) }) {
                    await poller.publishLive(pending)
                    pending = []
                }
            case .update(.notice), .update(.malformed):
                continue
            case .state(let venue, let connection, let state):
                // A venue is served stale from the moment one of its connections is down (also
                // before any frame came), until it is live again or its markets are polled.
                switch state {
                case .down(let fault):
                    await poller.publishStream(
                        venue: venue, connection: connection,
                        down: .connection(
                            venue: venue, url: urls[venue] ?? venue, detail: "stream down: \(fault.description)"))
                case .live, .resubscribed, .polling:
                    // Polling: the live quote service asks the connection's markets over REST
                    // every interval; each market is fresh or failed by its own answer.
                    await poller.publishStream(venue: venue, connection: connection, down: nil)
                default:
                    continue
                }
            case .due:
                pacer.redrew(at: clock.now)
                await poller.publishLive(pending)
                pending = []
            }
        }
    }

    private enum Input: Sendable {
        case update(LiveQuoteUpdate)
        /// A connection of a venue's stream changed state.
        case state(venue: String, connection: Int, VenueStreamState)
        /// The pending publication is due.
        case due
    }
}

/// Each followed venue's stream state (live, polling, down; connecting counts as down) and its
/// reconnects, for `/metrics`.
final class VenueStreamGauges: Sendable {
    private struct Venue {
        /// Each connection's last state.
        var connections: [Int: VenueStreamState] = [:]
        var reconnects = 0
    }

    private let venues = Mutex<[String: Venue]>([:])

    /// `venue` is followed on its stream (down until a connection is live).
    func follow(_ venue: String) {
        venues.withLock { if $0[venue] == nil { $0[venue] = Venue() } }
    }

    func record(_ venue: String, connection: Int, _ state: VenueStreamState) {
        venues.withLock { venues in
            var entry = venues[venue, default: Venue()]
            if state == .resubscribed { entry.reconnects += 1 }
            entry.connections[connection] = state
            venues[venue] = entry
        }
    }

    /// `live` when every connection is, `polling` when one polls REST, else `down`.
    static func state(_ connections: [Int: VenueStreamState]) -> String {
        let states = Array(connections.values)
        if !states.isEmpty, states.allSatisfy({ $0 == .live || $0 == .resubscribed }) { return "live" }
        if states.contains(where: { if case .polling = $0 { true } else { false } }) { return "polling" }
        return "down"
    }

    /// `agg_venue_stream_state{exchange,state}` (1 for the venue's state, 0 for the others) and
    /// `agg_venue_stream_reconnects_total{exchange}`.
    func write(to text: inout PrometheusText) {
        let venues = self.venues.withLock { $0 }
        guard !venues.isEmpty else { return }
        text.family(
            "agg_venue_stream_state", type: "gauge",
            help: "1 for the state of a venue's stream (live, polling over REST, down), 0 for the others.")
        for id in venues.keys.sorted() {
            let state = Self.state(venues[id]?.connections ?? [:])
            for name in ["live", "polling", "down"] {
                text.sample("agg_venue_stream_state", [("exchange", id), ("state", name)], state == name ? "1" : "0")
            }
        }
        text.family(
            "agg_venue_stream_reconnects_total", type: "counter",
            help: "Times a venue's stream came back and re-subscribed after a drop.")
        for id in venues.keys.sorted() {
            text.sample("agg_venue_stream_reconnects_total", [("exchange", id)], String(venues[id]?.reconnects ?? 0))
        }
    }
}
