import AggCore
import AggServer
import Foundation
import Testing

@testable import AggServe
@testable import AggServices

/// How `agg serve`'s snapshot takes the streams' changes: a venue is fresh only while no stream
/// connection and no market of it is down; its last quotes stand in (served stale) meanwhile.
@Suite("agg serve: stream changes in the snapshot, and the stream metrics")
struct ServeStreamSnapshotTests {
    static let btc = Market(base: "BTC", quote: "KRW")
    static let eth = Market(base: "ETH", quote: "KRW")
    static let xrp = Market(base: "XRP", quote: "KRW")

    static func quote(_ market: Market, _ last: Decimal) -> Quote {
        Quote(exchange: "upbit", market: market, last: last, receivedAt: Timestamp(millisecondsSince1970: 1))
    }

    static func fresh(_ quote: Quote) -> QuoteService.Outcome {
        QuoteService.Outcome(exchange: "upbit", market: quote.market, result: .success(quote))
    }

    static func failed(_ market: Market, _ error: AggError) -> QuoteService.Outcome {
        QuoteService.Outcome(exchange: "upbit", market: market, result: .failure(error))
    }

    static let down = AggError.connection(venue: "upbit", url: "ws://x", detail: "stream down: dropped")

    /// What a test reads of a venue: fresh or not, and its quotes in order.
    static func state(_ venue: ServeSnapshot.Venue) -> String {
        (venue.isFresh ? "fresh " : "stale ")
            + venue.quotes.map { "\($0.market.base)=\($0.last)" }.joined(separator: " ")
    }

    @Test("frames replace their market's quote; a down connection serves the venue stale until it is live")
    func downAndBack() {
        var venue = ServeSnapshot.Venue(
            currency: "KRW",
            answer: .success(BulkAnswer(values: [Self.quote(Self.btc, 100), Self.quote(Self.eth, 10)])),
            at: Timestamp(millisecondsSince1970: 1000))
        venue.apply(live: [Self.fresh(Self.quote(Self.eth, 11))], at: Timestamp(millisecondsSince1970: 2000))
        #expect(Self.state(venue) == "fresh BTC=100 ETH=11")
        #expect(venue.fetched == Timestamp(millisecondsSince1970: 2000))
        venue.stream(connection: 0, down: Self.down, at: Timestamp(millisecondsSince1970: 3000))
        #expect(Self.state(venue) == "stale BTC=100 ETH=11")
        #expect(
            venue.fetched == Timestamp(millisecondsSince1970: 2000), "the stale quotes' age counts from the last fresh")
        // A frame of another connection does not make the venue fresh while one is down.
        venue.apply(live: [Self.fresh(Self.quote(Self.btc, 101))], at: Timestamp(millisecondsSince1970: 4000))
        #expect(Self.state(venue) == "stale BTC=101 ETH=11")
        venue.stream(connection: 0, down: nil, at: Timestamp(millisecondsSince1970: 5000))
        #expect(Self.state(venue) == "fresh BTC=101 ETH=11")
    }

    @Test(
        "a market's failure (its quote stale in the live book) serves the venue stale until it is fresh; not listed is no failure"
    )
    func marketFailures() {
        var venue = ServeSnapshot.Venue(
            currency: "KRW", answer: .success(BulkAnswer(values: [Self.quote(Self.btc, 100)])),
            at: Timestamp(millisecondsSince1970: 1000))
        venue.apply(live: [Self.failed(Self.btc, Self.down)], at: Timestamp(millisecondsSince1970: 2000))
        #expect(Self.state(venue) == "stale BTC=100")
        venue.apply(
            live: [
                Self.fresh(Self.quote(Self.btc, 102)),
                Self.failed(
                    Self.xrp, .notListed(venue: "upbit", market: Self.xrp, code: "404", message: "Code not found")),
            ], at: Timestamp(millisecondsSince1970: 3000))
        #expect(Self.state(venue) == "fresh BTC=102")
        venue.apply(live: [Self.fresh(Self.quote(Self.xrp, 1))], at: Timestamp(millisecondsSince1970: 4000))
        #expect(Self.state(venue) == "fresh BTC=102 XRP=1")
        #expect(venue.byMarket[Self.xrp]?.last == 1)
    }

    @Test("/metrics: each followed venue's stream state and reconnects")
    func gauges() {
        let gauges = VenueStreamGauges()
        var empty = PrometheusText()
        gauges.write(to: &empty)
        #expect(empty.text == "", "nothing without followed venues (--no-stream)")
        gauges.follow("binance")
        gauges.follow("upbit")
        gauges.record("upbit", connection: 0, .live)
        gauges.record("upbit", connection: 0, .down(.dropped))
        gauges.record("upbit", connection: 0, .resubscribed)
        gauges.record("binance", connection: 0, .polling)
        var text = PrometheusText()
        gauges.write(to: &text)
        let samples = text.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            samples == [
                #"agg_venue_stream_state{exchange="binance",state="live"} 0"#,
                #"agg_venue_stream_state{exchange="binance",state="polling"} 1"#,
                #"agg_venue_stream_state{exchange="binance",state="down"} 0"#,
                #"agg_venue_stream_state{exchange="upbit",state="live"} 1"#,
                #"agg_venue_stream_state{exchange="upbit",state="polling"} 0"#,
                #"agg_venue_stream_state{exchange="upbit",state="down"} 0"#,
                #"agg_venue_stream_reconnects_total{exchange="binance"} 0"#,
                #"agg_venue_stream_reconnects_total{exchange="upbit"} 1"#,
            ])
    }
}
