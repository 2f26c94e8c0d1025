import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Kraken

// Kraken's v2 `ticker` channel: the codec on its own (every message kind, quirk and malformed
// message), then the real WebSocket client against the loopback server playing
// Fixtures/kraken/stream/*.jsonl.

private let btc = Market(base: "BTC", quote: "USD")
private let eth = Market(base: "ETH", quote: "USD")
private let received = Timestamp(millisecondsSince1970: 1_796_290_202_000)
private let codec = KrakenTickerStream()
private let bed = TickerStreamBed(codec, venue: "kraken", connector: WebSocketClient(), receivedAt: received)

/// The BTC/USD snapshot entry of ticker.jsonl: JSON numbers, an RFC 3339 time in microseconds.
private let btcTicker =
    #"{"symbol":"BTC/USD","bid":91234.4,"bid_qty":0.5,"ask":91234.5,"ask_qty":1.25,"last":91234.5,"volume":1234.56789012,"vwap":90500.1,"low":89000.0,"high":92000.1,"change":1734.5,"change_pct":1.94,"timestamp":"2026-12-03T09:30:00.136512Z"}"#

/// A ticker message of `type` with `entries`.
private func message(_ entries: String..., type: String = "snapshot") -> String {
    #"{"channel":"ticker","type":"\#(type)","data":[\#(entries.joined(separator: ","))]}"#
}

/// High, low and volume over 24 hours as the REST quote's; no open and so no change (the
/// stream's change is over 24 hours, the REST quote's since 00:00 UTC).
private let btcQuote = Quote(
    exchange: "kraken", market: btc, last: decimal("91234.5"), high: decimal("92000.1"), low: decimal("89000"),
    baseVolume: decimal("1234.56789012"), timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_136),
    receivedAt: received)

@Suite("Kraken stream codec")
struct KrakenStreamCodecTests {
    @Test("subscribe names v2 symbols, the usual codes (BTC/USD, DOGE/USD, not XBT or XDG), 200 a message")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth, Market(base: "DOGE", quote: "EUR")]) == [
                .text(
                    #"{"method":"subscribe","params":{"channel":"ticker","symbol":["BTC/USD","ETH/USD","DOGE/EUR"]}}"#)
            ])
        let messages = codec.subscribeMessages(for: (1...201).map { Market(base: "C\($0)", quote: "USD") })
        #expect(messages.count == 2)
        #expect(messages.last == .text(#"{"method":"subscribe","params":{"channel":"ticker","symbol":["C201/USD"]}}"#))
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("a snapshot or an update is quotes: JSON numbers read exactly, the RFC 3339 time cut to the ms")
    func ticker() {
        #expect(codec.read(.text(message(btcTicker)), receivedAt: received) == .quotes([btcQuote], skipped: []))
        #expect(
            codec.read(.text(message(btcTicker, type: "update")), receivedAt: received)
                == .quotes([btcQuote], skipped: []))
    }

    @Test("quirks: an exponent in a number, a message without a time (older schema), legacy XBT and XDG names")
    func quirks() {
        let exponent = btcTicker.replacingOccurrences(of: #""last":91234.5"#, with: #""last":9.12345E+4"#)
            .replacingOccurrences(of: #""volume":1234.56789012"#, with: #""volume":1.23456789012e3"#)
        #expect(codec.read(.text(message(exponent)), receivedAt: received) == .quotes([btcQuote], skipped: []))
        let untimed = btcTicker.replacingOccurrences(of: #","timestamp":"2026-12-03T09:30:00.136512Z""#, with: "")
        var expected = btcQuote
        expected.timestamp = nil
        #expect(codec.read(.text(message(untimed)), receivedAt: received) == .quotes([expected], skipped: []))
        let legacy = btcTicker.replacingOccurrences(of: "BTC/USD", with: "XBT/USD")
        let doge = btcTicker.replacingOccurrences(of: "BTC/USD", with: "XDG/USD")
        var dogeQuote = btcQuote
        dogeQuote.market = Market(base: "DOGE", quote: "USD")
        #expect(
            codec.read(.text(message(legacy, doge)), receivedAt: received)
                == .quotes([btcQuote, dogeQuote], skipped: []))
    }

    @Test("a message of several tickers loses only its bad entries; a pair in a quote agg does not ask for is left out")
    func skipped() {
        let bad = btcTicker.replacingOccurrences(of: "BTC/USD", with: "ETH/USD")
            .replacingOccurrences(of: #""last":91234.5"#, with: #""last":"3050.12""#)
        let pound = btcTicker.replacingOccurrences(of: "BTC/USD", with: "BTC/GBP")
        #expect(
            codec.read(.text(message(bad, pound, btcTicker)), receivedAt: received)
                == bed.skipped(
                    "ETH/USD", market: eth, path: "$.data[0].last", reason: "expected a number, found a string",
                    keeping: [btcQuote]))
    }

    @Test(
        "status, heartbeats, acknowledgements, pongs and other channels say nothing",
        arguments: [
            #"{"channel":"status","type":"update","data":[{"api_version":"v2","connection_id":12345678901234567890,"system":"online","version":"2.0.10"}]}"#,
            #"{"channel":"heartbeat"}"#,
            #"{"method":"subscribe","result":{"channel":"ticker","event_trigger":"trades","snapshot":true,"symbol":"BTC/USD"},"success":true,"time_in":"2026-12-03T09:29:59.901234Z","time_out":"2026-12-03T09:29:59.901456Z"}"#,
            #"{"method":"pong","req_id":1,"time_in":"2026-12-03T09:29:59.901234Z","time_out":"2026-12-03T09:29:59.901300Z"}"#,
            #"{"channel":"book","type":"update","data":[]}"#,
        ])
    func control(frame: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .control)
    }

    @Test(
        "a failed request is a refusal: the whole error is the code, as in REST answers",
        arguments: [
            (
                #"{"error":"Currency pair not supported NOPE/USD","method":"subscribe","success":false,"symbol":"NOPE/USD"}"#,
                "Currency pair not supported NOPE/USD", "Currency pair not supported NOPE/USD"
            ),
            (
                #"{"error":"EGeneral:Invalid arguments","method":"subscribe","success":false}"#,
                "EGeneral:Invalid arguments",
                "Invalid arguments"
            ),
            (
                #"{"error":"EAPI:Rate limit exceeded","success":false}"#, "EAPI:Rate limit exceeded",
                "Rate limit exceeded"
            ),
        ])
    func refused(frame: String, code: String, message: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .refused(code: code, message: message))
    }

    @Test(
        "a broken message is malformed, with the path of what broke, and costs only itself",
        arguments: [
            (#"{"channel":"ticker","data":[{"#, "invalid JSON at byte 29: expected a member name"),
            (#"[1]"#, "$: expected an object, found an array"),
            (#"{"type":"update"}"#, "$.channel: expected a channel or a method's answer"),
            (#"{"channel":"ticker","type":"update","data":{}}"#, "$.data: expected an array, found an object"),
            (#"{"channel":7}"#, "$.channel: expected a string, found a number"),
            (#"{"method":"subscribe","success":false}"#, "$.error: expected a string, found nothing"),
        ])
    func malformed(frame: String, reason: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .malformed(reason))
        #expect(codec.read(.text(message(btcTicker)), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test(
        "a ticker that breaks the grammar or the bounds is skipped with its path",
        arguments: [
            (#""last":91234.5,"#, "", "$.data[0].last", "expected a number, found nothing"),
            (#""last":91234.5"#, #""last":-91234.5"#, "$.data[0].last", "'-91234.5' is not a positive price"),
            (#""last":91234.5"#, #""last":0"#, "$.data[0].last", "'0' is not a positive price"),
            (#""last":91234.5"#, #""last":"91234.5""#, "$.data[0].last", "expected a number, found a string"),
            (#""volume":1234.56789012"#, #""volume":-1"#, "$.data[0].volume", "'-1' is negative"),
            (
                #""2026-12-03T09:30:00.136512Z""#, #""2026-12-03T09:30""#, "$.data[0].timestamp",
                "'2026-12-03T09:30' is not an RFC 3339 time"
            ),
            (
                #""2026-12-03T09:30:00.136512Z""#, #""2100-01-01T00:00:00Z""#, "$.data[0].timestamp",
                "2100-01-01T00:00:00.000Z is more than a day in the future"
            ),
            (#""symbol":"BTC/USD""#, #""symbol":"BTCUSD""#, "$.data[0].symbol", "unknown market code 'BTCUSD'"),
        ])
    func badEntry(find: String, replace: String, path: String, reason: String) {
        let ticker = btcTicker.replacingOccurrences(of: find, with: replace)
        let market: Market? = replace.contains("BTCUSD") ? nil : btc
        let entry = replace.contains("BTCUSD") ? "BTCUSD" : "BTC/USD"
        #expect(
            codec.read(.text(message(ticker)), receivedAt: received)
                == bed.skipped(entry, market: market, path: path, reason: reason))
    }
}

@Suite("Kraken stream over the WebSocket client", .timeLimit(.minutes(2)))
struct KrakenStreamLoopbackTests {
    @Test("ticker.jsonl: status on connect, subscribed as expected, acks and heartbeat said nothing, 3 quotes")
    func ticker() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.transcript.error == nil)
        let eth = Quote(
            exchange: "kraken", market: eth, last: decimal("3050.12"), high: decimal("3071"), low: decimal("2975.5"),
            baseVolume: decimal("34567.812"), timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_512),
            receivedAt: received)
        var later = btcQuote
        (later.last, later.baseVolume, later.timestamp) = (decimal("91240"), decimal("1235.1"), nil)
        #expect(
            run.transcript.readings == [
                .control, .control, .control, .quotes([btcQuote], skipped: []), .quotes([eth], skipped: []), .control,
                .quotes([later], skipped: []),
            ])
        #expect(run.connections.first?.violations == [])
    }

    @Test("faults.jsonl: Kraken's failed subscriptions are refusals; the connection stays open")
    func refused() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "USD")], readings: 2)
        #expect(
            run.transcript.readings == [
                .refused(code: "Currency pair not supported NOPE/USD", message: "Currency pair not supported NOPE/USD"),
                .refused(code: "EGeneral:Invalid arguments", message: "Invalid arguments"),
            ])
        #expect(run.transcript.error == nil)
        #expect(run.connections.first?.violations == [])
    }
}
