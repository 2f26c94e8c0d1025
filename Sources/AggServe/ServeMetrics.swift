import AggCore
import AggJSON
import AggServer
import AggServices
import FoundationEssentials
import Synchronization

/// The counters and histograms of `agg serve`, and `/metrics` in the Prometheus text format.
/// Prices, premiums and rates are floats there; the exact decimals stay in the JSON API (the
/// samples are written as the decimal text, which Prometheus reads as a float).
package final class ServeMetrics: Sendable {
    let httpDurations = DurationHistograms()
    let httpRequests = PairCounters()
    let upstreamDurations = DurationHistograms()
    let upstreamRequests = PairCounters()
    /// Requests turned away by a full work queue, or that waited for a slot too long.
    let rejected = Mutex(0)
    /// The followed venues' stream states and reconnects.
    let venueStreams = VenueStreamGauges()

    /// The part of `/metrics` that depends only on a published snapshot and its board.
    static func snapshotText(_ snapshot: ServeSnapshot, board: PremiumBoard?, plan: ServePlan) -> [UInt8] {
        var text = PrometheusText(capacity: 128 * 1024)
        text.family("agg_price", type: "gauge", help: "Last price of a market on a venue, in its quote currency.")
        // A venue that failed keeps its last prices and time (agg_source_up says it is down), so
        // that `time() - agg_quote_timestamp_seconds` grows for exactly that venue.
        for id in snapshot.venues.keys.sorted() {
            guard let quotes = snapshot.venues[id]?.quotes else { continue }
            for quote in quotes.sorted(by: { $0.market < $1.market }) {
                text.sample(
                    "agg_price", [("exchange", id), ("symbol", quote.market.base), ("quote", quote.market.quote)],
                    DecimalText.format(quote.last))
            }
        }
        text.family(
            "agg_premium_ratio", type: "gauge",
            help: "A local venue's premium over the global reference (0.0251 is 2.51 %), on the fx or usdt basis.")
        for row in board?.rows.sorted(by: { $0.base < $1.base }) ?? [] {
            for venue in row.venues.sorted(by: { $0.exchange < $1.exchange }) where venue.isLocal {
                for (basis, percent) in [("fx", venue.premiumPercent), ("usdt", venue.usdtPremiumPercent)] {
                    guard let percent else { continue }
                    text.sample(
                        "agg_premium_ratio", [("exchange", venue.exchange), ("symbol", row.base), ("basis", basis)],
                        DecimalText.format(percent / 100))
                }
            }
        }
        text.family("agg_fx_rate", type: "gauge", help: "Units of quote per one base, from an FX source.")
        // An FX source that fails keeps its last table's rates and time, as a venue does.
        for id in snapshot.fxTables.keys.sorted() {
            guard let table = snapshot.fxTables[id] else { continue }
            for code in table.rates.keys.sorted() {
                guard let rate = table.rates[code] else { continue }
                text.sample(
                    "agg_fx_rate", [("source", id), ("base", table.base), ("quote", code)], DecimalText.format(rate))
            }
        }
        text.family("agg_source_up", type: "gauge", help: "1 when the venue or FX source answered the last poll.")
        for id in plan.ids.sorted() {
            text.sample("agg_source_up", [("exchange", id)], snapshot.isUp(id) ? "1" : "0")
        }
        text.family(
            "agg_skipped_entries_total", type: "counter",
            help: "Entries of a venue's all-tickers answers skipped because they did not decode; the others answer.")
        for id in plan.venues.map(\.descriptor.id).sorted() {
            text.sample("agg_skipped_entries_total", [("exchange", id)], String(snapshot.venues[id]?.skippedTotal ?? 0))
        }
        text.family(
            "agg_snapshot_timestamp_seconds", type: "gauge", help: "When the last poll finished (Unix seconds).")
        text.sample("agg_snapshot_timestamp_seconds", [], seconds(snapshot.time))
        text.family(
            "agg_snapshots_published_total", type: "counter",
            help: "Snapshots published since the start (one per venue answer); the ETag's generation.")
        text.sample("agg_snapshots_published_total", [], String(snapshot.generation))
        text.family(
            "agg_quote_timestamp_seconds", type: "gauge",
            help: "The newest ticker time a venue sent, kept while it fails (Unix seconds).")
        for id in snapshot.venues.keys.sorted() {
            guard let quotes = snapshot.venues[id]?.quotes,
                let newest = quotes.compactMap(\.timestamp).map(\.millisecondsSince1970).max()
            else { continue }
            text.sample(
                "agg_quote_timestamp_seconds", [("exchange", id)],
                seconds(Timestamp(millisecondsSince1970: newest)))
        }
        text.family(
            "agg_quote_age_seconds", type: "gauge",
            help:
                "A quote's age when the snapshot was published: from the venue's time, else from when agg received it (seconds)."
        )
        for id in snapshot.venues.keys.sorted() {
            guard let quotes = snapshot.venues[id]?.quotes else { continue }
            for quote in quotes.sorted(by: { $0.market < $1.market }) {
                guard let age = quote.age(at: snapshot.time) else { continue }
                text.sample(
                    "agg_quote_age_seconds",
                    [("exchange", id), ("symbol", quote.market.base), ("quote", quote.market.quote)],
                    QuoteAging.secondsText(age))
            }
        }
        text.family(
            "agg_fx_timestamp_seconds", type: "gauge",
            help: "When an FX source's last table was published, kept while it fails (Unix seconds).")
        for id in snapshot.fxTables.keys.sorted() {
            guard let table = snapshot.fxTables[id] else { continue }
            text.sample("agg_fx_timestamp_seconds", [("source", id)], seconds(table.asOf))
        }
        return text.bytes
    }

    /// The live part: request counts and durations, and the event streams.
    func liveText(streams: EventStreamHub, lanes: ServeApp.Lanes) -> [UInt8] {
        var text = PrometheusText(capacity: 32 * 1024)
        upstreamRequests.write(
            to: &text, name: "agg_upstream_requests_total", labels: ("exchange", "outcome"),
            help: "Requests the poller sent to each venue, by outcome (ok, http_error, error).")
        upstreamDurations.write(
            to: &text, name: "agg_upstream_request_duration_seconds", labelName: "exchange",
            help: "Time from sending a request to a venue to its complete answer.")
        httpRequests.write(
            to: &text, name: "agg_http_requests_total", labels: ("path", "status"),
            help: "Requests served, by route and status.")
        httpDurations.write(
            to: &text, name: "agg_http_request_duration_seconds", labelName: "path",
            help: "Time from a request's arrival to the end of its response.")
        text.family("agg_stream_clients", type: "gauge", help: "Clients connected to /v1/stream.")
        text.sample("agg_stream_clients", [], String(streams.subscriberCount))
        text.family(
            "agg_stream_dropped_total", type: "counter", help: "Stream clients dropped for not reading their events.")
        text.sample("agg_stream_dropped_total", [], String(streams.droppedCount))
        text.family(
            "agg_compute_running", type: "gauge", help: "Answers being computed now, by lane (expensive, quote).")
        text.sample("agg_compute_running", [("lane", "expensive")], String(lanes.expensive.running))
        text.sample("agg_compute_running", [("lane", "quote")], String(lanes.quote.running))
        text.family(
            "agg_compute_waiting", type: "gauge", help: "Requests waiting for a compute slot now, by lane.")
        text.sample("agg_compute_waiting", [("lane", "expensive")], String(lanes.expensive.waiting))
        text.sample("agg_compute_waiting", [("lane", "quote")], String(lanes.quote.waiting))
        text.family(
            "agg_http_rejected_requests_total", type: "counter",
            help: "Requests answered 503 because their work queue was full or their answer was late.")
        text.sample("agg_http_rejected_requests_total", [], String(rejected.withLock { $0 }))
        venueStreams.write(to: &text)
        return text.bytes
    }

    /// Unix seconds with milliseconds: `1723104735.027`.
    static func seconds(_ time: Timestamp) -> String {
        let milliseconds = time.millisecondsSince1970
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        if fraction == 0 { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

/// The poller's HTTP client, counting each venue's requests by outcome and timing them.
struct MeteredHTTPClient: HTTPClient {
    let base: any HTTPClient
    /// (URL prefix, venue id), longest prefix first.
    let venues: [(prefix: String, id: String)]
    let metrics: ServeMetrics

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let venue = venues.first { request.url.hasPrefix($0.prefix) }?.id ?? "other"
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch {
            record(venue, outcome: "error", since: started)
            throw error
        }
        record(venue, outcome: response.isSuccess ? "ok" : "http_error", since: started)
        return response
    }

    private func record(_ venue: String, outcome: String, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        metrics.upstreamRequests.increment(venue, outcome)
        metrics.upstreamDurations.observe(venue, seconds: elapsed.seconds)
    }
}
