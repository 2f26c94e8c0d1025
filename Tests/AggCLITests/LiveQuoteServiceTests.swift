import AggCore
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggOptions
@testable import AggServices

/// The live quote service on a scripted connector and a clock moved by hand: what the stream
/// events make it do (quotes, gap fill, polling, stale marks, the venue's lines) is asserted
/// exactly; real time bounds only how long a task may take to get there.
@Suite("Live quote service: streams, gap fill, polling, stale marks", .timeLimit(.minutes(3)))
struct LiveQuoteServiceTests {
    static let btc = Market(base: "BTC", quote: "KRW")
    static let eth = Market(base: "ETH", quote: "KRW")

    /// The service on `StreamTestAdapter` (and `TickerOnlyAdapter`), with its updates collected.
    final class Harness: Sendable {
        let connector = ScriptedStreamConnector()
        let clock = ManualStreamClock()
        let rest: StreamTestREST
        private let log = UpdateLog()
        private let task: Task<Void, Never>

        init(
            symbols: [String] = ["BTC", "ETH"], venues: [String] = ["streamy"], interval: Double = 2,
            announce: Bool = false, environment: [String: String] = [:]
        ) throws {
            let rest = StreamTestREST(["BTC": "100", "ETH": "10"])
            self.rest = rest
            var registry = AdapterRegistry()
            registry.register(StreamTestAdapter.self)
            registry.register(TickerOnlyAdapter.self)
            var context = CLIContext(
                registry: registry, environment: environment,
                console: Console(
                    standardOutput: BufferSink(), standardError: BufferSink(), outputIsTerminal: false,
                    errorIsTerminal: false, width: 200),
                makeHTTPClient: { _ in rest.client })
            let connector = connector
            let clock = clock
            context.makeStreamConnector = { connector }
            context.makeStreamClock = { clock }
            let options = try NetworkOptions(
                try ArgumentParser.parse(["BTC"], spec: WatchCommand.spec), context: context)
            let plan = try QuoteService.plan(
                symbols: symbols, exchanges: ExchangeSelection(ids: venues, explicit: true), quoteCurrency: nil,
                all: false, registry: registry)
            let service = LiveQuoteService(
                factory: AdapterFactory(context: context, options: options), context: context, jitterSeed: 7)
            let updates = service.updates(
                LiveQuoteRequest(plan: plan, interval: interval, streams: true, announcesPolling: announce))
            let log = log
            task = Task { for await update in updates { log.append(update) } }
        }

        deinit { task.cancel() }

        var notices: [String] {
            log.read {
                $0.compactMap { if case .notice(let line) = $0 { line } else { nil } }
            }
        }

        /// The changed outcomes of every quote update, as `venue BASE last [stale]`.
        var changes: [String] {
            log.read {
                $0.flatMap { update -> [String] in
                    guard case .quotes(let changed, _) = update else { return [] }
                    return changed.map(Self.text)
                }
            }
        }

        /// The malformed-message updates, as `venue: reason (total)`.
        var malformed: [String] {
            log.read {
                $0.compactMap {
                    guard case .malformed(let venue, let reason, let total) = $0 else { return nil }
                    return "\(venue): \(reason) (\(total))"
                }
            }
        }

        /// The board of the last quote update.
        var board: [String] {
            log.read {
                for update in $0.reversed() {
                    if case .quotes(_, let board) = update { return board.map(Self.text) }
                }
                return []
            }
        }

        static func text(_ outcome: QuoteService.Outcome) -> String {
            switch outcome.result {
            case .success(let quote): "\(outcome.exchange) \(quote.market.base) \(quote.last)"
            case .failure:
                outcome.stale.map { "\(outcome.exchange) \($0.quote.market.base) \($0.quote.last) stale" }
                    ?? "\(outcome.exchange) \(outcome.market.base) error"
            }
        }

        /// Waits for the runner's backoff sleeper (within 40 s of now; the fallback watchers wait
        /// 60 s) and advances the clock to it.
        func advanceToBackoff() async -> Bool {
            let now = clock.now
            let window = { self.clock.deadlines.filter { $0 > now && $0 < now + .seconds(40) } }
            guard await RealTime.poll(within: 60, { !window().isEmpty }), let next = window().min() else {
                return false
            }
            clock.advance(to: next)
            return true
        }

        /// Connection number `count` once it has sent its subscription (a venue speaks after it).
        func subscribed(_ count: Int) async -> ScriptedStreamConnection? {
            guard let connection = await connector.connection(count),
                await RealTime.poll(within: 60, { !connection.sent.isEmpty })
            else { return nil }
            return connection
        }

        func wait(_ condition: @escaping @Sendable (Harness) -> Bool) async -> Bool {
            await RealTime.poll(within: 60) { condition(self) }
        }
    }

    @Test("frames become quote updates; a frame that changes nothing but its receive time is no update; no REST")
    func quotesFlow() async throws {
        let harness = try Harness()
        let connection = try #require(await harness.subscribed(1))
        #expect(await RealTime.poll(within: 60) { connection.sent == [.text("sub BTC,ETH")] })
        #expect(connection.url == "wss://streamy.invalid/ws")
        connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
        connection.deliver(StreamTestCodec.ticker("BTC", "2.5"))
        connection.deliver(StreamTestCodec.ticker("ETH", "0.25"))
        connection.deliver(StreamTestCodec.ticker("BTC", "2.75", 1_700_000_001_000))
        #expect(await harness.wait { $0.changes.count == 3 })
        #expect(harness.changes == ["streamy BTC 2.5", "streamy ETH 0.25", "streamy BTC 2.75"])
        #expect(harness.board == ["streamy BTC 2.75", "streamy ETH 0.25"])
        #expect(harness.notices == [])
        #expect(harness.rest.requests == 0)
    }

    @Test("AGG_<ID>_WS_URL overrides the descriptor's stream URL")
    func urlOverride() async throws {
        let harness = try Harness(environment: ["AGG_STREAMY_WS_URL": "ws://127.0.0.1:9/live"])
        let connection = try #require(await harness.subscribed(1))
        #expect(connection.url == "ws://127.0.0.1:9/live")
    }

    @Test("a malformed message is counted and costs only itself")
    func malformed() async throws {
        let harness = try Harness()
        let connection = try #require(await harness.subscribed(1))
        connection.deliver("garbage")
        connection.deliver(StreamTestCodec.ticker("BTC", "3"))
        #expect(await harness.wait { $0.changes.count == 1 })
        #expect(harness.changes == ["streamy BTC 3"])
        #expect(harness.malformed == ["streamy: not JSON (1)"])
        #expect(harness.connector.connections.count == 1)
        #expect(harness.notices == [])
    }

    @Test(
        "down: quotes marked stale and one line however many attempts fail; back: one REST snapshot fills the gap, one line"
    )
    func downAndBack() async throws {
        let harness = try Harness()
        let first = try #require(await harness.subscribed(1))
        first.deliver(StreamTestCodec.ticker("BTC", "2.5"))
        first.deliver(StreamTestCodec.ticker("ETH", "0.25"))
        #expect(await harness.wait { $0.changes.count == 2 })
        first.fail(.closed(code: 1006, reason: ""))
        #expect(await harness.wait { $0.notices.count == 1 })
        #expect(harness.notices == ["streamy: stream down (closed with code 1006); reconnecting"])
        #expect(await harness.wait { $0.board == ["streamy BTC 2.5 stale", "streamy ETH 0.25 stale"] })
        // The second attempt fails too: still one line.
        #expect(await harness.advanceToBackoff())
        let second = try #require(await harness.subscribed(2))
        second.fail(.dropped)
        #expect(await harness.advanceToBackoff())
        let third = try #require(await harness.subscribed(3))
        #expect(harness.notices.count == 1)
        #expect(harness.rest.requests == 0)
        harness.rest.set("ETH", "11")
        third.deliver(StreamTestCodec.ticker("BTC", "2.6"))
        #expect(
            await harness.wait { $0.board == ["streamy BTC 2.6", "streamy ETH 11"] },
            "\(harness.changes) \(harness.notices)")
        #expect(
            harness.notices == ["streamy: stream down (closed with code 1006); reconnecting", "streamy: stream back"])
        #expect(harness.rest.requests == 2)
        #expect(
            harness.rest.client.requests.map(\.url).sorted() == [
                "https://streamy.invalid/ticker/BTC", "https://streamy.invalid/ticker/ETH",
            ])
    }

    @Test("60 s without a stream: the markets are polled over REST every interval, said once; the stream back stops it")
    func polling() async throws {
        let harness = try Harness(symbols: ["BTC"], interval: 5)
        let first = try #require(await harness.subscribed(1))
        first.fail(.handshakeRefused(status: 429))
        #expect(await harness.wait { $0.notices.count == 1 })
        #expect(harness.notices == ["streamy: stream down (refused with HTTP 429); reconnecting"])
        #expect(await harness.clock.waitForSleeper(at: .seconds(60), within: 60))
        harness.clock.advance(to: .seconds(60))
        #expect(await harness.wait { $0.rest.requests == 1 && $0.changes == ["streamy BTC 100"] })
        #expect(
            harness.notices == [
                "streamy: stream down (refused with HTTP 429); reconnecting",
                "streamy: no stream for a while; polling over REST every 5 s",
            ])
        harness.rest.set("BTC", "101")
        #expect(await harness.clock.waitForSleeper(at: .seconds(65), within: 60))
        harness.clock.advance(to: .seconds(65))
        #expect(await harness.wait { $0.rest.requests == 2 && $0.changes == ["streamy BTC 100", "streamy BTC 101"] })
        // A live connection ends the polling (a connection opened by the backoff meanwhile).
        let live = try #require(await harness.subscribed(2))
        live.deliver(StreamTestCodec.ticker("BTC", "102"))
        #expect(await harness.wait { $0.notices.count == 3 })
        #expect(harness.notices.last == "streamy: stream back")
        let requests = harness.rest.requests
        harness.clock.advance(to: .seconds(200))
        try await Task.sleep(for: .milliseconds(50))
        #expect(harness.rest.requests == requests)
        #expect(harness.board == ["streamy BTC 102"])
    }

    @Test("a venue without a stream polls REST every interval and, when named, says so once")
    func venueWithoutStream() async throws {
        let harness = try Harness(symbols: ["BTC/USD"], venues: ["testbare"], interval: 3, announce: true)
        #expect(await harness.wait { $0.changes == ["testbare BTC 1"] })
        #expect(harness.notices == ["testbare: no stream; polling over REST every 3 s"])
        #expect(harness.connector.connections.isEmpty)
        #expect(await harness.clock.waitForSleeper(at: .seconds(3), within: 60))
    }
}

/// Updates as they came.
final class UpdateLog: Sendable {
    private let updates = Mutex<[LiveQuoteUpdate]>([])

    func append(_ update: LiveQuoteUpdate) {
        updates.withLock { $0.append(update) }
    }

    func read<Value>(_ body: ([LiveQuoteUpdate]) -> Value) -> Value {
        updates.withLock { body($0) }
    }
}

@Suite("Redraw pacing: at most 4 redraws a second")
struct RedrawPacerTests {
    @Test("the first change redraws at once, one within 250 ms waits for the slot, the rest join it")
    func pacing() {
        var pacer = RedrawPacer()
        #expect(pacer.spacing == .milliseconds(250))
        #expect(pacer.changed(at: .zero) == .redraw)
        pacer.redrew(at: .zero)
        #expect(pacer.changed(at: .milliseconds(10)) == .schedule(.milliseconds(250)))
        #expect(pacer.changed(at: .milliseconds(200)) == .joined)
        pacer.redrew(at: .milliseconds(250))
        #expect(pacer.changed(at: .milliseconds(600)) == .redraw)
        pacer.redrew(at: .milliseconds(600))
        #expect(pacer.changed(at: .milliseconds(849)) == .schedule(.milliseconds(850)))
    }

    @Test("drawsNow on a clock: draws at once, then sets one timer for the slot that fires when the clock gets there")
    func drawsNow() async {
        let clock = ManualStreamClock()
        let fired = Mutex(0)
        var pacer = RedrawPacer()
        var timer: Task<Void, Never>?
        #expect(pacer.drawsNow(on: clock, timer: &timer) { fired.withLock { $0 += 1 } })
        #expect(timer == nil)
        clock.advance(to: .milliseconds(10))
        #expect(!pacer.drawsNow(on: clock, timer: &timer) { fired.withLock { $0 += 1 } })
        let first = timer
        #expect(first != nil)
        #expect(!pacer.drawsNow(on: clock, timer: &timer) { fired.withLock { $0 += 1 } })
        #expect(timer == first)
        #expect(await clock.advanceToSleeper(at: .milliseconds(250)))
        await first?.value
        #expect(fired.withLock { $0 } == 1)
    }
}
