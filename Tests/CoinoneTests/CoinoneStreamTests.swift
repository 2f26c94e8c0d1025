import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Testing

@testable import Coinone

private let codec = CoinoneTickerStream()
private let received = Timestamp(millisecondsSince1970: 1_796_259_726_000)
private let bed = TickerStreamBed(codec, venue: "coinone", connector: WebSocketClient(), receivedAt: received)
private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")

/// The three tickers of Fixtures/coinone/stream/ticker.jsonl, every field. The stream's `first`
/// is the UTC day's first price: the change is `last - first` since 00:00 UTC, the percent
/// rounded to 4 places. ETH's best prices are `null` (an empty side), which costs nothing.
private let fixtureQuotes = [
    Quote(
        exchange: "coinone", market: btc, last: 132_080_000, open: 131_700_000, high: 132_500_000, low: 131_000_000,
        change: 380_000, changePercent: decimal("0.2885"), changeBasis: .sinceUTCMidnight,
        baseVolume: decimal("934.12345678"), quoteVolume: decimal("123456789012.3456"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_456), receivedAt: received),
    Quote(
        exchange: "coinone", market: eth, last: 4_624_000, open: 4_705_000, high: 4_720_000, low: 4_600_000,
        change: -81_000, changePercent: decimal("-1.7216"), changeBasis: .sinceUTCMidnight,
        baseVolume: decimal("9876.54321"), quoteVolume: decimal("45678901234.5"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001), receivedAt: received),
    Quote(
        exchange: "coinone", market: btc, last: 132_100_000, open: 131_700_000, high: 132_500_000, low: 131_000_000,
        change: 400_000, changePercent: decimal("0.3037"), changeBasis: .sinceUTCMidnight,
        baseVolume: decimal("934.12545678"), quoteVolume: decimal("123457053212.3456"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_725_789), receivedAt: received),
]

/// A BTC ticker frame whose `data` holds the currencies and `fields`.
private func ticker(_ fields: String) -> StreamMessage {
    .text(
        #"{"response_type":"DATA","channel":"TICKER","data":{"quote_currency":"KRW","target_currency":"BTC",\#(fields)}}"#
    )
}

@Suite("Coinone ticker stream")
struct CoinoneStreamTests {
    @Test("one SUBSCRIBE a pair, codes upper case, in the order asked")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth]) == [
                .text(
                    #"{"request_type":"SUBSCRIBE","channel":"TICKER","topic":{"quote_currency":"KRW","target_currency":"BTC"}}"#
                ),
                .text(
                    #"{"request_type":"SUBSCRIBE","channel":"TICKER","topic":{"quote_currency":"KRW","target_currency":"ETH"}}"#
                ),
            ])
    }

    @Test("the descriptor: URL, the app PING every 20 s, one pair a message")
    func descriptor() {
        let stream = CoinoneAdapter.descriptor.stream
        #expect(stream?.url == "wss://stream.coinone.co.kr")
        #expect(stream?.keepAlive == .message(.text(#"{"request_type":"PING"}"#), every: .seconds(20)))
        #expect(stream?.quotas.marketsPerMessage == 1)
        #expect(CoinoneAdapter.descriptor.streamURLVariable == "AGG_COINONE_WS_URL")
    }

    @Test("the fixture's frames: greeting, acks and PONG are control; three tickers with exact values")
    func fixtureFrames() throws {
        let readings = try WebSocketScript.fixture(venue: "coinone", name: "ticker").sentMessages.map {
            codec.read($0, receivedAt: received)
        }
        #expect(
            readings == [
                .control, .control, .control, .quotes([fixtureQuotes[0]], skipped: []),
                .quotes([fixtureQuotes[1]], skipped: []), .control, .quotes([fixtureQuotes[2]], skipped: []),
            ])
    }

    @Test(
        "each kind of frame, and each broken one costing only itself",
        arguments: [
            (
                StreamMessage.text(#"{"response_type":"ERROR","error_code":160012,"message":"Invalid Topic"}"#),
                StreamReading.refused(code: "160012", message: "Invalid Topic")
            ),
            (
                .text(
                    #"{"response_type":"ERROR","error_code":160011,"message":"Invalid Type","field":"request_type"}"#),
                .refused(code: "160011", message: "Invalid Type")
            ),
            (
                .text(
                    #"{"response_type":"UNSUBSCRIBED","channel":"TICKER","data":{"quote_currency":"KRW","target_currency":"XRP"}}"#
                ), .control
            ),
            (.text(#"{"response_type":"DATA","channel":"ORDERBOOK","data":{"asks":[],"bids":[]}}"#), .control),
            (
                ticker(#""timestamp":1796259723456,"first":"131700000""#),
                .malformed("$.data.last: expected a decimal, found nothing")
            ),
            (
                ticker(#""last":"1.3208E8""#),
                .malformed(
                    "$.data.last: '1.3208E8' has an exponent: a decimal written as text must be written out in full")
            ),
            (ticker(#""last":"-132080000""#), .malformed("$.data.last: '-132080000' is not a positive price")),
            (ticker(#""last":"0""#), .malformed("$.data.last: '0' is not a positive price")),
            (ticker(#""last":"132,080,000""#), .malformed("$.data.last: '132,080,000' is not a decimal number")),
            (
                ticker(#""last":"132080000","timestamp":"soon""#),
                .malformed("$.data.timestamp: 'soon' is not a whole number in range")
            ),
            (
                .text(
                    #"{"response_type":"DATA","channel":"TICKER","data":{"quote_currency":"KRW","target_currency":"A\"B","last":"1"}}"#
                ), .malformed(#"$.data: unknown market 'A"B/KRW'"#)
            ),
            (.text(#"{"channel":"TICKER"}"#), .malformed("$.response_type: expected a string, found nothing")),
            (.text(#""PONG""#), .malformed("$: expected an object, found a string")),
        ])
    func frames(message: StreamMessage, reading: StreamReading) {
        #expect(codec.read(message, receivedAt: received) == reading)
    }

    @Test(
        "the real client against the loopback server playing ticker.jsonl: the greeting, one subscribe a pair, 3 quotes"
    )
    func loopback() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.outcome == TickerStreamOutcome(quotes: fixtureQuotes, readings: 7))
    }

    @Test("faults.jsonl: an unknown pair is acknowledged, then refused by an ERROR naming no topic")
    func loopbackError() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "KRW")], readings: 3)
        #expect(run.transcript.readings == [.control, .control, .refused(code: "160012", message: "Invalid Topic")])
        #expect(run.endedClean)
    }
}
