import AggCore
import AggDataVenues
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

private let received = Timestamp(millisecondsSince1970: 1_796_259_726_000)
private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")

/// The three KRW tickers of Fixtures/gopax/stream/ticker.jsonl (JSON numbers, ETH's `4.623E6` in
/// exponent form, `lastTraded` ms; the stream's `open` is the first trade after 00:00 KST, so no
/// change basis), in order: the subscribe's reply holds BTC and ETH (and ETH-USDC, a currency agg
/// does not ask GOPAX for, left out), then one `TickerEvent` for BTC.
private let fixtureQuotes = [
    Quote(
        exchange: "gopax", market: btc, last: 132_080_000, open: 131_650_000, high: 132_500_000, low: 131_000_000,
        baseVolume: decimal("123.45678901"), quoteVolume: decimal("16300000000.5"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_456), receivedAt: received),
    Quote(
        exchange: "gopax", market: eth, last: 4_623_000, open: 4_700_000, high: 4_715_000, low: 4_601_000,
        baseVolume: decimal("2010.5"), quoteVolume: 9_295_000_000,
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001), receivedAt: received),
    Quote(
        exchange: "gopax", market: btc, last: 132_100_000, open: 131_650_000, high: 132_500_000, low: 131_000_000,
        baseVolume: decimal("123.46678901"), quoteVolume: decimal("16301321000.5"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_725_789), receivedAt: received),
]

/// The shipped GOPAX file's stream, a data venue's: GOPAX streams every ticker in one
/// subscription, keeps the socket with Primus pings that want a pong, and sends JSON numbers.
@Suite("GOPAX ticker stream (data venue)")
struct GopaxStreamTests {
    static func adapter() throws -> any VenueAdapter {
        try DataVenueLoader.load(file: DataVenueAdapterTests.gopaxFile) { .shippedFile(path: $0) }.make(
            AdapterEnvironment(baseURL: "https://gopax.invalid", http: ScriptedHTTPClient(body: "{}")))
    }

    static func codec() throws -> any TickerStreamCodec {
        try #require(try adapter().tickerStream)
    }

    /// The file's codec on the real client, every message received at `received`.
    static func bed() throws -> TickerStreamBed {
        TickerStreamBed(try codec(), venue: "gopax", connector: WebSocketClient(), receivedAt: received)
    }

    @Test("the file declares the stream: capability, URL, no keep-alive of agg's, quotas as data")
    func descriptor() throws {
        let adapter = try Self.adapter()
        #expect(adapter.descriptor.supports(.stream))
        #expect(
            adapter.descriptor.stream
                == StreamDescriptor(
                    url: "wss://wsapi.gopax.co.kr", keepAlive: .none, silenceLimit: .seconds(70),
                    quotas: StreamQuotas(
                        marketsPerConnection: 1000, marketsPerMessage: 1000, messagesPerSecond: 1,
                        connectionsPerWindow: 5, connectionWindow: .seconds(1))))
        #expect(adapter.descriptor.streamURLVariable == "AGG_GOPAX_WS_URL")
    }

    @Test("one subscription for every ticker, whatever the markets; none for no market")
    func subscribe() throws {
        let codec = try Self.codec()
        #expect(codec.subscribeMessages(for: [btc, eth]) == [.text(#"{"n":"SubscribeToTickers","o":{}}"#)])
        #expect(codec.subscribeMessages(for: [btc]) == [.text(#"{"n":"SubscribeToTickers","o":{}}"#)])
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("the fixture's frames: the all-tickers reply, the Primus ping answered, the event keyed by pair")
    func fixtureFrames() throws {
        let codec = try Self.codec()
        let readings = try WebSocketScript.fixture(venue: "gopax", name: "ticker").sentMessages.map {
            codec.read($0, receivedAt: received)
        }
        #expect(
            readings == [
                .quotes(Array(fixtureQuotes[0...1]), skipped: []), .reply(.text(#""primus::pong::1796259724500""#)),
                .quotes([fixtureQuotes[2]], skipped: []),
            ])
    }

    @Test("a bad ticker among many costs only itself; the error reply is a refusal; other frames are control")
    func frames() throws {
        let codec = try Self.codec()
        let event = #"""
            {"i":-1,"n":"TickerEvent","o":{"BTC-KRW":{"last":"1.32E8","lastTraded":1796259725789},"ETH-KRW":{"last":4623000,"lastTraded":1796259724001},"XRP-KRW":{"last":-1},"DOGE-KRW":"gone","KRW":{"last":1}}}
            """#
        #expect(
            codec.read(.text(event), receivedAt: received)
                == .quotes(
                    [
                        Quote(
                            exchange: "gopax", market: eth, last: 4_623_000,
                            timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001), receivedAt: received)
                    ],
                    skipped: [
                        SkippedEntry(
                            venue: "gopax", entry: "BTC-KRW", market: btc, path: "$.o.BTC-KRW.last",
                            reason: "'1.32E8' has an exponent: a decimal written as text must be written out in full"),
                        SkippedEntry(
                            venue: "gopax", entry: "XRP-KRW", market: Market(base: "XRP", quote: "KRW"),
                            path: "$.o.XRP-KRW.last", reason: "'-1' is not a positive price"),
                    ]))
        #expect(
            codec.read(
                .text(#"{"n":"SubscribeToTickers","o":{"result":false,"errCode":10001,"errData":"No such endpoint"}}"#),
                receivedAt: received) == .refused(code: "10001", message: "No such endpoint"))
        #expect(
            codec.read(.text(#"{"i":-1,"n":"OrderBookEvent","o":{"ask":[],"bid":[]}}"#), receivedAt: received)
                == .control)
        #expect(
            codec.read(.text(#"{"n":"TickerEvent","o":[1]}"#), receivedAt: received)
                == .malformed("$.o: expected an object keyed by symbol, or a symbol path for a list"))
        #expect(
            codec.read(.text(#""primus::other""#), receivedAt: received)
                == .malformed("$: expected an object, found a string"))
        #expect(
            codec.read(.text("primus"), receivedAt: received)
                == .malformed("$: not JSON: invalid JSON at byte 0: unexpected character 'p'"))
    }

    @Test(
        "a stream declaration is read strictly: each problem names its path in the file",
        arguments: [
            (
                #""url": "wss://wsapi.gopax.co.kr""#, #""url": "https://wsapi.gopax.co.kr""#,
                "$.stream.url: expected a ws:// or wss:// URL"
            ),
            (
                #""scope": "all""#, #""scope": "market""#,
                "$.stream.subscribe: a message per market must name it with {symbol}, or {base} and {quote}"
            ),
            (#""scope": "all""#, #""scope": "every""#, "$.stream.scope: 'every' is not one of: market, all"),
            (
                #""silenceSeconds": 70"#, #""silenceSeconds": 0"#,
                "$.stream.silenceSeconds: expected a whole number from 1 to 3600"
            ),
            (
                #""keepAlive": {"kind": "none"}"#, #""keepAlive": {"kind": "pong"}"#,
                "$.stream.keepAlive.kind: 'pong' is not one of: none, ping, message"
            ),
            (
                #""messagesPerSecond": 1"#, #""messagesPerSecond": "1""#,
                "$.stream.quotas.messagesPerSecond: expected a whole number from 1 to 1000"
            ),
            (
                #""silenceSeconds": 70,"#, #""silenceSeconds": 70, "silence": 1,"#,
                "$.stream.silence: unknown key 'silence'; expected one of: url, subscribe, scope, keepAlive, silenceSeconds, quotas, replies, errors, tickers, fields, time, changeBasis"
            ),
        ])
    func strict(original: String, replacement: String, problem: String) throws {
        let text = String(decoding: try Data(contentsOf: DataVenueAdapterTests.gopaxFile), as: UTF8.self)
        #expect(text.contains(original))
        do {
            _ = try DataVenueDefinition.parse(Array(text.replacingOccurrences(of: original, with: replacement).utf8))
            Issue.record("parsed")
        } catch {
            #expect(error.description == problem)
        }
    }

    @Test("the real client against the loopback server playing ticker.jsonl: subscribe and pong checked, 3 quotes")
    func loopback() async throws {
        let run = try await Self.bed().ticker(markets: [btc, eth], quotes: 3)
        #expect(run.outcome == TickerStreamOutcome(quotes: fixtureQuotes, readings: 3))
        #expect(run.transcript.replies == [.text(#""primus::pong::1796259724500""#)])
    }

    @Test("faults.jsonl: GOPAX's refusal of the subscribe (o.result false, errCode, errData) is a refusal")
    func loopbackError() async throws {
        let run = try await Self.bed().faults(markets: [btc], readings: 1)
        #expect(run.transcript.readings == [.refused(code: "10001", message: "No such endpoint")])
        #expect(run.endedClean)
    }
}
