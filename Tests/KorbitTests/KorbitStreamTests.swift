import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Testing

@testable import Korbit

private let codec = KorbitTickerStream()
private let received = Timestamp(millisecondsSince1970: 1_796_259_726_000)
private let bed = TickerStreamBed(codec, venue: "korbit", connector: WebSocketClient(), receivedAt: received)
private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")

/// The three tickers of Fixtures/korbit/stream/ticker.jsonl, every field, mapped as REST's
/// `/v2/tickers` (Korbit's own change, no change basis; the time is `lastTradedAt`). The third
/// frame has no `snapshot` key.
private let fixtureQuotes = [
    Quote(
        exchange: "korbit", market: btc, last: 132_063_000, open: 131_370_000, high: 132_765_000, low: 130_412_000,
        previousClose: 131_304_000, change: 759_000, changePercent: decimal("0.58"),
        baseVolume: decimal("39.25266763"), quoteVolume: decimal("5149864965.49708"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_456), receivedAt: received),
    Quote(
        exchange: "korbit", market: eth, last: 4_622_000, open: 4_700_000, high: 4_715_000, low: 4_601_000,
        previousClose: 4_705_000, change: -83_000, changePercent: decimal("-1.76"), baseVolume: decimal("812.0045"),
        quoteVolume: decimal("3772190123.1"), timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001),
        receivedAt: received),
    Quote(
        exchange: "korbit", market: btc, last: 132_080_000, open: 131_370_000, high: 132_765_000, low: 130_412_000,
        previousClose: 131_304_000, change: 776_000, changePercent: decimal("0.59"),
        baseVolume: decimal("39.26266763"), quoteVolume: decimal("5151185765.49708"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_725_789), receivedAt: received),
]

/// A btc_krw ticker frame with `members` beside the symbol and `data` holding `fields`.
private func ticker(_ fields: String, members: String = "") -> StreamMessage {
    .text(#"{"symbol":"btc_krw","timestamp":1796259723500,"type":"ticker",\#(members)"data":{\#(fields)}}"#)
}

@Suite("Korbit ticker stream")
struct KorbitStreamTests {
    @Test("one array request names every symbol, lower case")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth, Market(base: "1INCH", quote: "KRW")]) == [
                .text(#"[{"method":"subscribe","type":"ticker","symbols":["btc_krw","eth_krw","1inch_krw"]}]"#)
            ])
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("the descriptor: URL, a ping frame every 20 s, all of a connection's symbols in one message")
    func descriptor() {
        let stream = KorbitAdapter.descriptor.stream
        #expect(stream?.url == "wss://ws-api.digitalx.miraeasset.com/v2/public")
        #expect(stream?.keepAlive == .pingFrame(every: .seconds(20)))
        #expect(stream?.quotas.marketsPerMessage == stream?.quotas.marketsPerConnection)
        #expect(KorbitAdapter.descriptor.streamURLVariable == "AGG_KORBIT_WS_URL")
    }

    @Test("the fixture's frames: three tickers with exact values, an orderbook frame is control")
    func fixtureFrames() throws {
        let readings = try WebSocketScript.fixture(venue: "korbit", name: "ticker").sentMessages.map {
            codec.read($0, receivedAt: received)
        }
        #expect(
            readings == [
                .quotes([fixtureQuotes[0]], skipped: []), .quotes([fixtureQuotes[1]], skipped: []), .control,
                .quotes([fixtureQuotes[2]], skipped: []),
            ])
    }

    @Test("snapshot true, false, null or missing all decode; without lastTradedAt the frame's timestamp is the time")
    func snapshotAndTime() {
        for members in [#""snapshot":true,"#, #""snapshot":false,"#, #""snapshot":null,"#, ""] {
            let reading = codec.read(ticker(#""close":"132063000""#, members: members), receivedAt: received)
            #expect(
                reading
                    == .quotes(
                        [
                            Quote(
                                exchange: "korbit", market: btc, last: 132_063_000,
                                timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_500), receivedAt: received)
                        ], skipped: []), "\(members)")
        }
    }

    @Test(
        "each kind of frame, and each broken one costing only itself",
        arguments: [
            (StreamMessage.text(#"{"status":"success","requestId":1}"#), StreamReading.control),
            (
                .text(
                    #"{"status":"fail","code":"INVALID_SYMBOL","message":"The symbol does not exist (nope_krw)","requestId":2}"#
                ), .refused(code: "INVALID_SYMBOL", message: "The symbol does not exist (nope_krw)")
            ),
            (
                .text(#"{"status":"fail","message":"invalid_format"}"#),
                .refused(code: "invalid_format", message: "invalid_format")
            ),
            (.text(#"{"symbol":"btc_krw","timestamp":1796259728085,"type":"trade","data":[]}"#), .control),
            (ticker(#""open":"131370000""#), .malformed("$.data.close: expected a decimal, found nothing")),
            (
                ticker(#""close":"1.32E8""#),
                .malformed(
                    "$.data.close: '1.32E8' has an exponent: a decimal written as text must be written out in full")
            ),
            (ticker(#""close":"-132063000""#), .malformed("$.data.close: '-132063000' is not a positive price")),
            (ticker(#""close":"0""#), .malformed("$.data.close: '0' is not a positive price")),
            (ticker(#""close":true"#), .malformed("$.data.close: expected a decimal, found a boolean")),
            (
                ticker(#""close":"132063000""#, members: #""snapshot":"yes","#),
                .malformed("$.snapshot: expected a boolean, found a string")
            ),
            (
                .text(#"{"symbol":"BTC-KRW","type":"ticker","data":{"close":"1"}}"#),
                .malformed("$.symbol: unknown symbol 'BTC-KRW'")
            ),
            (
                .text(#"{"type":"ticker","data":{"close":"1"}}"#),
                .malformed("$.symbol: expected a string, found nothing")
            ),
            (.text(#"{"symbol":"btc_krw"}"#), .malformed(#"$: expected a "status" or a "type""#)),
            (.text("{"), .malformed("$: not JSON: invalid JSON at byte 1: expected a member name")),
        ])
    func frames(message: StreamMessage, reading: StreamReading) {
        #expect(codec.read(message, receivedAt: received) == reading)
    }

    @Test(
        "the real client against the loopback server playing ticker.jsonl: the subscribe checked, the server's ping answered, 3 quotes"
    )
    func loopback() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.outcome == TickerStreamOutcome(quotes: fixtureQuotes, readings: 4))
    }

    @Test("faults.jsonl: an unknown symbol is refused with Korbit's code and message")
    func loopbackError() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "KRW")], readings: 1)
        #expect(
            run.transcript.readings == [
                .refused(code: "INVALID_SYMBOL", message: "The symbol does not exist (nope_krw)")
            ])
        #expect(run.endedClean)
    }
}
