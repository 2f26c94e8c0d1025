import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServices

/// `agg record --stream`'s ticks against a live quote book the test plays stream events into,
/// over the loopback fixture server: a live stream is sampled (its exact quotes and times, no
/// REST request), a starting or down stream is asked over REST, and a stream back but not yet
/// gap-filled records nothing of the venue and says why.
@Suite("agg record --stream: what a tick takes of a stream")
struct RecordStreamSamplingTests {
    static let btc = Market(base: "BTC", quote: "KRW")
    static let eth = Market(base: "ETH", quote: "KRW")

    static func quote(_ market: Market, _ last: String, venueTime: Int64, receivedAt: Int64) throws -> Quote {
        Quote(
            exchange: "upbit", market: market, last: try DecimalText.parse(last),
            timestamp: Timestamp(millisecondsSince1970: venueTime),
            receivedAt: Timestamp(millisecondsSince1970: receivedAt))
    }

    @Test("starting: REST; live: the book's exact quotes, no request; down: REST; back before its gap fill: nothing")
    func linkStates() async throws {
        let harness = try RecordServiceTests.Harness(venues: ["upbit", "bithumb", "exchangerate"])
        defer { harness.cleanUp() }
        let plan = try harness.plan(["BTC", "ETH"], exchanges: ["upbit", "bithumb"])
        let (_, continuation) = AsyncStream<LiveQuoteUpdate>.makeStream()
        let clock = harness.clock
        let book = LiveQuoteBook(
            plan: QuoteService.Plan(
                requests: [QuoteService.VenueRequest(venue: "upbit", markets: [Self.btc, Self.eth])], all: false,
                quoteCurrency: nil),
            continuation: continuation, wallTime: { clock.now })
        var service = try harness.service()
        service.streams = RecordStreams(book: book)
        var state = RecordService.State()
        let now = harness.clock.now.millisecondsSince1970
        func upbitPrices(_ report: RecordService.TickReport) -> [String] {
            report.recorded.prices.filter { $0.exchange == "upbit" }.map {
                "\($0.market) \($0.last) \($0.venueTime?.millisecondsSince1970 ?? -1) "
                    + "\($0.receivedAt.map { String($0.millisecondsSince1970 - now) } ?? "-")"
            }
        }

        // Starting (no connection live yet): REST, as without --stream.
        let starting = await service.tick(plan, number: 1, state: &state)
        #expect(starting.streamed == [])
        #expect(starting.failures.isEmpty)
        #expect(harness.requests("upbit") == 1)
        #expect(upbitPrices(starting).count == 2)

        // Live: the book's quotes, exactly, with their times; upbit is not asked.
        book.streamUp(venue: "upbit", connection: 0)
        book.received(
            [
                try Self.quote(Self.btc, "132087000.5", venueTime: now - 1_500, receivedAt: now - 700),
                try Self.quote(Self.eth, "4621500", venueTime: now - 2_000, receivedAt: now - 900),
            ], venue: "upbit")
        harness.clock.advance(10)
        let live = await service.tick(plan, number: 2, state: &state)
        #expect(live.streamed == ["upbit"])
        #expect(live.answered.sorted() == ["bithumb", "upbit"])
        #expect(live.failures.isEmpty)
        #expect(harness.requests("upbit") == 1)
        #expect(harness.requests("bithumb") == 2)
        #expect(
            upbitPrices(live) == [
                "BTC/KRW 132087000.5 \(now - 1_500) -700", "ETH/KRW 4621500 \(now - 2_000) -900",
            ])
        #expect(
            live.recorded.prices.filter { $0.exchange == "upbit" }.map(\.age) == [
                QuoteAge(milliseconds: 11_500, basis: .venueTime), QuoteAge(milliseconds: 12_000, basis: .venueTime),
            ])

        // Down and reconnecting: REST again; the stale quotes are not recorded.
        book.streamDown(
            venue: "upbit", connection: 0, markets: [Self.btc, Self.eth], fault: .dropped, url: "ws://127.0.0.1:9/")
        harness.clock.advance(10)
        let down = await service.tick(plan, number: 3, state: &state)
        #expect(down.streamed == [])
        #expect(harness.requests("upbit") == 2)
        #expect(!upbitPrices(down).contains { $0.hasPrefix("BTC/KRW 132087000.5 ") })
        #expect(upbitPrices(down).count == 2)

        // Back live but before the gap fill answered: nothing fresh, so nothing of upbit is
        // recorded, it is reported with why, and REST is not asked (the gap fill is the service's).
        book.streamUp(venue: "upbit", connection: 0)
        harness.clock.advance(10)
        let back = await service.tick(plan, number: 4, state: &state)
        #expect(back.streamed == [])
        #expect(upbitPrices(back) == [])
        #expect(
            back.failures.map(\.error.description) == [
                "upbit: connection to ws://127.0.0.1:9/ failed: stream down: dropped without a close frame"
            ])
        #expect(harness.requests("upbit") == 2)
        #expect(back.prices == back.recorded.prices.count)
    }
}
