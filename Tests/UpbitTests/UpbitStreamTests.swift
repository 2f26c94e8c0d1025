import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Testing

@testable import Upbit

private let codec = UpbitAdapter.tickerCodec
private let received = Timestamp(millisecondsSince1970: 1_796_259_726_000)
private let bed = TickerStreamBed(codec, venue: "upbit", connector: WebSocketClient(), receivedAt: received)
private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")

/// The three tickers of Fixtures/upbit/stream/ticker.jsonl, every field: JSON numbers (ETH's
/// `4.6215E6` and `1.16539E11` in exponent form), the fractional `signed_change_rate` as a
/// percent, `timestamp` as the venue's time.
private let fixtureQuotes = [
    Quote(
        exchange: "upbit", market: btc, last: 132_087_000, open: 131_500_000, high: 132_480_000, low: 130_950_000,
        previousClose: 131_500_000, change: 587_000, changePercent: decimal("0.44638783"),
        changeBasis: .sinceUTCMidnight, baseVolume: decimal("2345.67891234"),
        quoteVolume: decimal("309876543210.98765"), timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_456),
        receivedAt: received),
    Quote(
        exchange: "upbit", market: eth, last: 4_621_500, open: 4_700_000, high: 4_712_000, low: 4_598_000,
        previousClose: 4_700_000, change: -78_500, changePercent: decimal("-1.67021277"),
        changeBasis: .sinceUTCMidnight, baseVolume: decimal("35123.98765432"), quoteVolume: 116_539_000_000,
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001), receivedAt: received),
    Quote(
        exchange: "upbit", market: btc, last: 132_090_000, open: 131_500_000, high: 132_480_000, low: 130_950_000,
        previousClose: 131_500_000, change: 590_000, changePercent: decimal("0.4486692"),
        changeBasis: .sinceUTCMidnight, baseVolume: decimal("2345.67991234"),
        quoteVolume: decimal("309876675300.98765"), timestamp: Timestamp(millisecondsSince1970: 1_796_259_725_789),
        receivedAt: received),
]

/// A ticker frame of KRW-BTC with `fields` (JSON members) after its type and code.
private func ticker(_ fields: String) -> StreamMessage {
    .binary(Array(#"{"type":"ticker","code":"KRW-BTC",\#(fields)}"#.utf8))
}

@Suite("Upbit ticker stream")
struct UpbitStreamTests {
    @Test("one request names every market, codes upper case, with a ticket and the DEFAULT format")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth, Market(base: "XRP", quote: "BTC")]) == [
                .text(
                    #"[{"ticket":"agg"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH","BTC-XRP"]},{"format":"DEFAULT"}]"#
                )
            ])
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test(
        "the descriptor: URL, the text PING every 20 s, 30 s of silence, one request for all of a connection's markets")
    func descriptor() {
        let stream = UpbitAdapter.descriptor.stream
        #expect(stream?.url == "wss://api.upbit.com/websocket/v1")
        #expect(stream?.keepAlive == .message(.text("PING"), every: .seconds(20)))
        #expect(stream?.silenceLimit == .seconds(30))
        #expect(stream?.quotas.marketsPerMessage == stream?.quotas.marketsPerConnection)
        #expect(stream?.quotas.connectionsPerWindow == 5)
        #expect(UpbitAdapter.descriptor.supports(.stream))
        #expect(UpbitAdapter.descriptor.streamURLVariable == "AGG_UPBIT_WS_URL")
    }

    @Test("the fixture's frames: three tickers with exact values, the status frame is control")
    func fixtureFrames() throws {
        let readings = try WebSocketScript.fixture(venue: "upbit", name: "ticker").sentMessages.map {
            codec.read($0, receivedAt: received)
        }
        #expect(
            readings == [
                .quotes([fixtureQuotes[0]], skipped: []), .quotes([fixtureQuotes[1]], skipped: []), .control,
                .quotes([fixtureQuotes[2]], skipped: []),
            ])
    }

    @Test(
        "each kind of frame, and each broken one costing only itself",
        arguments: [
            // Another type (an orderbook the socket also carries), a status without a type.
            (
                StreamMessage.binary(Array(#"{"type":"orderbook","code":"KRW-BTC","orderbook_units":[]}"#.utf8)),
                StreamReading.control
            ),
            (.text(#"{"status":"UP"}"#), .control),
            (
                .text(#"{"error":{"name":"NO_CODES","message":"codes 필드가 없습니다."}}"#),
                .refused(code: "NO_CODES", message: "codes 필드가 없습니다.")
            ),
            (.text(#"{"error":{"name":400,"message":"Bad"}}"#), .refused(code: "400", message: "Bad")),
            (ticker(#""timestamp":1796259723456"#), .malformed("$.trade_price: expected a number, found nothing")),
            (ticker(#""trade_price":"1.32087E8""#), .malformed("$.trade_price: expected a number, found a string")),
            (ticker(#""trade_price":-132087000"#), .malformed("$.trade_price: '-132087000' is not a positive price")),
            (ticker(#""trade_price":0"#), .malformed("$.trade_price: '0' is not a positive price")),
            (
                ticker(#""trade_price":132087000,"opening_price":true"#),
                .malformed("$.opening_price: expected a number, found a boolean")
            ),
            (
                ticker(#""trade_price":132087000,"timestamp":1000"#),
                .malformed("$.timestamp: 1970-01-01T00:00:01.000Z is before 2009-01-03")
            ),
            (
                .binary(Array(#"{"type":"ticker","code":"KRW-A\"B","trade_price":1}"#.utf8)),
                .malformed(#"$.code: unknown market code 'KRW-A"B'"#)
            ),
            (.text(#"{"type":5}"#), .malformed("$.type: expected a string, found a number")),
            (.text("[1,2]"), .malformed("$: expected an object, found an array")),
            (.text("PONG"), .malformed("$: not JSON: invalid JSON at byte 0: unexpected character 'P'")),
        ])
    func frames(message: StreamMessage, reading: StreamReading) {
        #expect(codec.read(message, receivedAt: received) == reading)
    }

    @Test("the real client against the loopback server playing ticker.jsonl: the subscribe checked, 3 quotes in order")
    func loopback() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.outcome == TickerStreamOutcome(quotes: fixtureQuotes, readings: 4))
    }

    @Test("the venue's error frame is a refusal, and its close ends the stream")
    func loopbackError() async throws {
        let run = try await bed.faults(markets: [btc, eth])
        #expect(run.transcript.readings == [.refused(code: "NO_CODES", message: "요청한 코드가 없습니다.")])
        #expect(run.transcript.closeCode == 1000)
        #expect(run.connections.first?.violations == [])
    }
}
