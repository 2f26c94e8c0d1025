import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Testing

@testable import Bithumb

private let codec = BithumbAdapter.tickerCodec
private let received = Timestamp(millisecondsSince1970: 1_796_259_726_000)
private let bed = TickerStreamBed(codec, venue: "bithumb", connector: WebSocketClient(), receivedAt: received)
private let btc = Market(base: "BTC", quote: "KRW")
private let eth = Market(base: "ETH", quote: "KRW")

/// The three tickers of Fixtures/bithumb/stream/ticker.jsonl, every field. Bithumb writes
/// `trade_date`/`trade_time` in Korean time (`100203` is 01:02:03 UTC) and `trade_timestamp` as
/// a number or a string; `delisting_date` is `""`. Its v1 quotes carry no change basis.
private let fixtureQuotes = [
    Quote(
        exchange: "bithumb", market: btc, last: 132_100_000, open: 131_600_000, high: 132_500_000, low: 131_000_000,
        previousClose: 131_600_000, change: 500_000, changePercent: decimal("0.38"), baseVolume: decimal("987.6543"),
        quoteVolume: decimal("130000000000.25"), timestamp: Timestamp(millisecondsSince1970: 1_796_259_723_412),
        receivedAt: received),
    Quote(
        exchange: "bithumb", market: eth, last: 4_625_000, open: 4_705_000, high: 4_720_000, low: 4_600_000,
        previousClose: 4_705_000, change: -80_000, changePercent: decimal("-1.7003188"), baseVolume: decimal("40000.5"),
        quoteVolume: 185_000_000_000, timestamp: Timestamp(millisecondsSince1970: 1_796_259_724_001),
        receivedAt: received),
    Quote(
        exchange: "bithumb", market: btc, last: 132_105_000, open: 131_600_000, high: 132_500_000, low: 131_000_000,
        previousClose: 131_600_000, change: 505_000, changePercent: decimal("0.383738600"),
        baseVolume: decimal("987.6544"), quoteVolume: decimal("130000013210.75"),
        timestamp: Timestamp(millisecondsSince1970: 1_796_259_725_789), receivedAt: received),
]

/// A ticker frame of KRW-BTC with its price and `fields` (JSON members) after them.
private func ticker(_ fields: String) -> StreamMessage {
    .binary(Array(#"{"type":"ticker","code":"KRW-BTC","trade_price":132100000,\#(fields)}"#.utf8))
}

@Suite("Bithumb ticker stream")
struct BithumbStreamTests {
    @Test("one request in Upbit's shape names every market, codes upper case")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth]) == [
                .text(#"[{"ticket":"agg"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH"]},{"format":"DEFAULT"}]"#)
            ])
    }

    @Test("the descriptor: URL, the text PING every 20 s, 10 connections a second")
    func descriptor() {
        let stream = BithumbAdapter.descriptor.stream
        #expect(stream?.url == "wss://ws-api.bithumb.com/websocket/v1")
        #expect(stream?.keepAlive == .message(.text("PING"), every: .seconds(20)))
        #expect(stream?.quotas.marketsPerMessage == stream?.quotas.marketsPerConnection)
        #expect(stream?.quotas.connectionsPerWindow == 10)
        #expect(stream?.quotas.connectionWindow == .seconds(1))
    }

    @Test("the fixture's frames: Korean trade times, string timestamps, exact values; the status frame is control")
    func fixtureFrames() throws {
        let readings = try WebSocketScript.fixture(venue: "bithumb", name: "ticker").sentMessages.map {
            codec.read($0, receivedAt: received)
        }
        #expect(
            readings == [
                .quotes([fixtureQuotes[0]], skipped: []), .control, .quotes([fixtureQuotes[1]], skipped: []),
                .quotes([fixtureQuotes[2]], skipped: []),
            ])
    }

    @Test(
        "the time: Korean trade date and time, the milliseconds of trade_timestamp when it names that second",
        arguments: [
            // Epoch ms, as a number or a string.
            (#""trade_date":"20261203","trade_time":"100203","trade_timestamp":1796259723412"#, 1_796_259_723_412),
            (#""trade_date":"20261203","trade_time":"100203","trade_timestamp":"1796259723412""#, 1_796_259_723_412),
            // Korean wall time written as epoch ms (9 h ahead), as Bithumb's REST ticker does.
            (#""trade_date":"20261203","trade_time":"100203","trade_timestamp":1796292123412"#, 1_796_259_723_412),
            // A stamp of another second is ignored: the whole second of the trade.
            (#""trade_date":"20261203","trade_time":"100203","trade_timestamp":1796259799999"#, 1_796_259_723_000),
            // Across midnight: 08:59:59 KST on the 4th is 23:59:59 UTC on the 3rd.
            (#""trade_date":"20261204","trade_time":"085959""#, 1_796_342_399_000),
        ] as [(String, Int64)])
    func time(fields: String, milliseconds: Int64) {
        guard case .quotes(let quotes, _) = codec.read(ticker(fields), receivedAt: received) else {
            Issue.record("not a quote")
            return
        }
        #expect(quotes.map(\.timestamp) == [Timestamp(millisecondsSince1970: milliseconds)])
    }

    @Test(
        "each broken frame costs only itself",
        arguments: [
            (
                StreamMessage.binary(Array(#"{"type":"ticker","code":"KRW-BTC","trade_date":"20261203"}"#.utf8)),
                "$.trade_price: expected a number, found nothing"
            ),
            (
                .binary(Array(#"{"type":"ticker","code":"KRW-BTC","trade_price":"1.321E8"}"#.utf8)),
                "$.trade_price: expected a number, found a string"
            ),
            (
                .binary(Array(#"{"type":"ticker","code":"KRW-BTC","trade_price":-1}"#.utf8)),
                "$.trade_price: '-1' is not a positive price"
            ),
            (
                ticker(#""trade_date":"2026-12-03","trade_time":"10:02:03""#),
                "$.trade_time: expected trade_date 'YYYYMMDD' and trade_time 'HHMMSS' (KST)"
            ),
            (
                ticker(#""trade_date":"20261203","trade_time":"100203","trade_timestamp":"17962597e3""#),
                "$.trade_timestamp: '17962597e3' is not a whole number in range"
            ),
            (
                .binary(Array(#"{"type":"ticker","code":"krw-btc","trade_price":1}"#.utf8)),
                "$.code: unknown market code 'krw-btc'"
            ),
            (.binary([0xFF, 0x00]), #"$: not JSON: invalid JSON at byte 0: unexpected character '\xff'"#),
        ])
    func malformed(message: StreamMessage, reason: String) {
        #expect(codec.read(message, receivedAt: received) == .malformed(reason))
    }

    @Test("the error frame is a refusal with Bithumb's name and Korean message")
    func error() {
        #expect(
            codec.read(
                .binary(Array(#"{"error":{"name":"WRONG_FORMAT","message":"Format 이 맞지 않습니다."}}"#.utf8)),
                receivedAt: received)
                == .refused(code: "WRONG_FORMAT", message: "Format 이 맞지 않습니다."))
    }

    @Test("the real client against the loopback server playing ticker.jsonl: the subscribe checked, 3 quotes in order")
    func loopback() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.outcome == TickerStreamOutcome(quotes: fixtureQuotes, readings: 4))
    }

    @Test("faults.jsonl: the error frame is a refusal, and the venue's close ends the stream")
    func loopbackError() async throws {
        let run = try await bed.faults(markets: [btc, eth])
        #expect(run.transcript.readings == [.refused(code: "INVALID_PARAM", message: "codes 필드가 비어 있습니다.")])
        #expect(run.transcript.closeCode == 1000)
        #expect(run.connections.first?.violations == [])
    }
}
