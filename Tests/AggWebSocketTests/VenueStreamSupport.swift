import AggCore
import AggTestKit
import Dispatch
import Foundation
import Synchronization

@testable import AggTransport

/// The sample venue of the runner's tests: text JSON tickers `{"m":"BTC-KRW","p":"1.5","t":...}`,
/// `{"type":"ack"}` acknowledgements, `{"ping":n}` that wants `{"pong":n}`, and
/// `{"error":{"code":...,"message":...}}`.
struct SampleTickerCodec: TickerStreamCodec {
    func subscribeMessages(for markets: [Market]) -> [StreamMessage] {
        [.text(#"{"sub":["# + markets.map { "\"\($0.base)-\($0.quote)\"" }.joined(separator: ",") + "]}")]
    }

    func read(_ message: StreamMessage, receivedAt: Timestamp) -> StreamReading {
        guard case .text(let text) = message,
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        else { return .malformed("not a JSON object") }
        if let code = object["m"] as? String {
            let parts = code.split(separator: "-")
            guard parts.count == 2 else { return .malformed("$.m is not BASE-QUOTE") }
            guard let text = object["p"] as? String, let price = Decimal(string: text), price > 0 else {
                return .malformed("$.p is not a price")
            }
            guard let time = (object["t"] as? Int).map(Int64.init) else { return .malformed("$.t is not a time") }
            return .quotes(
                [
                    Quote(
                        exchange: "sample", market: Market(base: String(parts[0]), quote: String(parts[1])),
                        last: price, timestamp: Timestamp(millisecondsSince1970: time), receivedAt: receivedAt)
                ], skipped: [])
        }
        if let ping = object["ping"] as? Int { return .reply(.text(#"{"pong":\#(ping)}"#)) }
        if let error = object["error"] as? [String: Any] {
            return .refused(code: error["code"] as? String ?? "", message: error["message"] as? String ?? "")
        }
        return .control
    }
}

/// A runner against a loopback server, with its events collected as they come.
final class StreamHarness: Sendable {
    let server: WebSocketLoopbackServer
    let client: WebSocketClient
    let clock: ManualStreamClock
    let stream: VenueStream
    private let log = EventLog()
    private let runner: Task<Void, Never>
    private let collector: Task<Void, Never>

    /// Starts `descriptor`'s stream of `markets` against a server playing `scripts`.
    init(
        scripts: [WebSocketScript], markets: [Market] = [Sample.btc],
        descriptor: AdapterDescriptor = Sample.descriptor(),
        seed: UInt64 = 42
    ) throws {
        server = try WebSocketLoopbackServer(scripts: scripts)
        let client = WebSocketClient()
        let clock = ManualStreamClock()
        let stream = try VenueStream(
            descriptor: descriptor, codec: SampleTickerCodec(), url: server.url(), markets: markets,
            connector: client, clock: clock, jitterSeed: seed)
        self.client = client
        self.clock = clock
        self.stream = stream
        let (events, continuation) = AsyncStream<VenueStreamEvent>.makeStream()
        runner = Task { await stream.run(continuation) }
        let log = log
        collector = Task { for await event in events { log.append(event) } }
    }

    /// Every event so far.
    var events: [VenueStreamEvent] { log.events }

    /// The state changes of `connection` so far.
    func states(_ connection: Int = 0) -> [VenueStreamState] {
        events.compactMap {
            guard case .state(connection, let state) = $0 else { return nil }
            return state
        }
    }

    /// The quotes of every event so far.
    var quotes: [Quote] {
        events.flatMap {
            guard case .quotes(_, let quotes, _) = $0 else { return [Quote]() }
            return quotes
        }
    }

    /// Waits (real time) until `condition` holds for the events.
    func wait(within seconds: Double = 20, until condition: ([VenueStreamEvent]) -> Bool) async -> Bool {
        await RealTime.poll(within: seconds) { condition(self.events) }
    }

    /// Waits until `connection` has reported `count` states.
    func waitForStates(_ count: Int, connection: Int = 0) async -> Bool {
        await RealTime.poll(within: 20) { self.states(connection).count >= count }
    }

    /// Cancels the runner and waits for it and its event stream to end.
    func stop() async {
        runner.cancel()
        await runner.value
        await collector.value
    }
}

/// Events as they came.
final class EventLog: Sendable {
    /// Each event with the time (`WS.now()`) it reached the log.
    private let state = Mutex<[(event: VenueStreamEvent, arrived: Double)]>([])

    func append(_ event: VenueStreamEvent) {
        let arrived = WS.now()
        state.withLock { $0.append((event, arrived)) }
    }

    var events: [VenueStreamEvent] { state.withLock { $0.map(\.event) } }

    /// When the last event that `matches` reached the log.
    func lastArrival(where matches: (VenueStreamEvent) -> Bool) -> Double? {
        state.withLock { $0.last { matches($0.event) }?.arrived }
    }
}

/// The sample venue's data.
enum Sample {
    static let btc = Market(base: "BTC", quote: "KRW")
    static let eth = Market(base: "ETH", quote: "KRW")

    static let quotas = StreamQuotas(
        marketsPerConnection: 10, marketsPerMessage: 10, messagesPerSecond: 5, connectionsPerWindow: 100,
        connectionWindow: .seconds(60))

    static func descriptor(
        keepAlive: StreamKeepAlive = .none, silenceLimit: Duration = .seconds(30), quotas: StreamQuotas = quotas
    ) -> AdapterDescriptor {
        AdapterDescriptor(
            id: "sample", displayName: "Sample", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
            capabilities: [.ticker, .stream], requestsPerSecond: 1, defaultBaseURL: "http://127.0.0.1",
            stream: StreamDescriptor(
                url: "ws://127.0.0.1/", keepAlive: keepAlive, silenceLimit: silenceLimit, quotas: quotas))
    }

    /// A ticker frame's script step.
    static func ticker(_ code: String, _ price: String, _ time: Int64) -> String {
        #"{"send":"text","data":"{\"m\":\"\#(code)\",\"p\":\"\#(price)\",\"t\":\#(time)}"}"#
    }

    /// The quote `ticker` decodes to, received at `receivedAt` milliseconds of the manual clock.
    static func quote(_ market: Market, _ price: String, _ time: Int64, receivedAt: Int64 = 0) -> Quote {
        Quote(
            exchange: "sample", market: market, last: Decimal(string: price) ?? 0,
            timestamp: Timestamp(millisecondsSince1970: time),
            receivedAt: Timestamp(millisecondsSince1970: ManualStreamClock.epoch + receivedAt))
    }

    /// The expect step of the subscription of `codes`.
    static func subscribe(_ codes: String...) -> String {
        #"{"expect":"text","data":"{\"sub\":["# + codes.map { #"\"\#($0)\""# }.joined(separator: ",") + #"]}"}"#
    }

    /// A healthy connection: the subscription of BTC-KRW, then one ticker.
    static let healthy = [subscribe("BTC-KRW"), ticker("BTC-KRW", "2.5", 1_700_000_000_500)]
}
