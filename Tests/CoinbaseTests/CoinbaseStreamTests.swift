import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Coinbase

// Coinbase Exchange's `ticker` channel: the codec on its own (every message type, quirk and
// malformed message), then the real WebSocket client against the loopback server playing
// Fixtures/coinbase/stream/*.jsonl.

private let btc = Market(base: "BTC", quote: "USD")
private let eth = Market(base: "ETH", quote: "USD")
private let received = Timestamp(millisecondsSince1970: 1_796_290_202_000)
private let codec = CoinbaseTickerStream()
private let bed = TickerStreamBed(codec, venue: "coinbase", connector: WebSocketClient(), receivedAt: received)

/// The first BTC-USD ticker of ticker.jsonl.
private let btcTicker =
    #"{"type":"ticker","sequence":109382837486,"product_id":"BTC-USD","price":"91234.56","open_24h":"89500.00","volume_24h":"12345.67800000","low_24h":"89000.00","high_24h":"92000.10","volume_30d":"412345.67890123","best_bid":"91234.55","best_bid_size":"0.10647825","best_ask":"91234.56","best_ask_size":"0.03131702","side":"buy","time":"2026-12-03T09:30:00.136512Z","trade_id":845913723,"last_size":"0.00012"}"#

/// The change is derived from the 24-hour open, as the REST quote's is from its stats.
private let btcQuote = Quote(
    exchange: "coinbase", market: btc, last: decimal("91234.56"), open: decimal("89500"), high: decimal("92000.1"),
    low: decimal("89000"), change: decimal("1734.56"), changePercent: decimal("1.9381"), changeBasis: .rolling24h,
    baseVolume: decimal("12345.678"), timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_136),
    receivedAt: received)

@Suite("Coinbase stream codec")
struct CoinbaseStreamCodecTests {
    @Test("one subscribe message names the products and the ticker and heartbeat channels, 100 products a message")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth]) == [
                .text(#"{"type":"subscribe","product_ids":["BTC-USD","ETH-USD"],"channels":["ticker","heartbeat"]}"#)
            ])
        let messages = codec.subscribeMessages(for: (1...101).map { Market(base: "C\($0)", quote: "USD") })
        #expect(messages.count == 2)
        #expect(
            messages.last
                == .text(#"{"type":"subscribe","product_ids":["C101-USD"],"channels":["ticker","heartbeat"]}"#))
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("a ticker decodes through the REST mapping: price, 24-hour stats, time in microseconds cut to the ms")
    func ticker() {
        #expect(codec.read(.text(btcTicker), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test("a ticker without its time has none; a sequence beyond 2^53 is not read at all")
    func quirks() {
        let untimed = btcTicker.replacingOccurrences(of: #""time":"2026-12-03T09:30:00.136512Z","#, with: "")
        var expected = btcQuote
        expected.timestamp = nil
        #expect(codec.read(.text(untimed), receivedAt: received) == .quotes([expected], skipped: []))
        let longSequence = btcTicker.replacingOccurrences(of: "109382837486", with: "9007199254740993")
        #expect(codec.read(.text(longSequence), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test(
        "subscriptions, heartbeats and types Coinbase adds say nothing",
        arguments: [
            #"{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD"],"account_ids":null}]}"#,
            #"{"type":"heartbeat","last_trade_id":845913722,"product_id":"BTC-USD","sequence":109382837485,"time":"2026-12-03T09:29:59.998871Z"}"#,
            #"{"type":"status","products":[],"currencies":[]}"#,
        ])
    func control(frame: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .control)
    }

    @Test(
        "an error message is a refusal: Coinbase's message stands as the code, its reason as the message",
        arguments: [
            (
                #"{"type":"error","message":"Failed to subscribe","reason":"NOPE-USD is not a valid product"}"#,
                "Failed to subscribe", "NOPE-USD is not a valid product"
            ),
            (
                #"{"type":"error","message":"Type has to be either subscribe or unsubscribe"}"#,
                "Type has to be either subscribe or unsubscribe", "Type has to be either subscribe or unsubscribe"
            ),
        ])
    func refused(frame: String, code: String, message: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .refused(code: code, message: message))
    }

    @Test(
        "a broken message is malformed, with the path of what broke, and costs only itself",
        arguments: [
            (#"{"type":"ticker""#, "invalid JSON at byte 16: unexpected end of input inside an object"),
            (#"["ticker"]"#, "$.type: expected a string, found nothing"),
            (#"{"product_id":"BTC-USD","price":"1"}"#, "$.type: expected a string, found nothing"),
            (
                btcTicker.replacingOccurrences(of: #""price":"91234.56","#, with: ""),
                "$.price: expected a decimal, found nothing"
            ),
            (
                btcTicker.replacingOccurrences(of: #""price":"91234.56""#, with: #""price":"9.123456e4""#),
                "$.price: '9.123456e4' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                btcTicker.replacingOccurrences(of: #""price":"91234.56""#, with: #""price":"-91234.56""#),
                "$.price: '-91234.56' is not a positive price"
            ),
            (
                btcTicker.replacingOccurrences(of: #""price":"91234.56""#, with: #""price":"0""#),
                "$.price: '0' is not a positive price"
            ),
            (
                btcTicker.replacingOccurrences(of: #""price":"91234.56""#, with: #""price":null"#),
                "$.price: expected a decimal, found null"
            ),
            (
                btcTicker.replacingOccurrences(of: #""open_24h":"89500.00""#, with: #""open_24h":["89500"]"#),
                "$.open_24h: expected a decimal, found an array"
            ),
            (
                btcTicker.replacingOccurrences(of: "2026-12-03T09:30:00.136512Z", with: "2026-12-03 09:30"),
                "$.time: '2026-12-03 09:30' is not an ISO-8601 time"
            ),
            (
                btcTicker.replacingOccurrences(of: "2026-12-03T09:30:00.136512Z", with: "2100-01-01T00:00:00Z"),
                "$.time: 2100-01-01T00:00:00.000Z is more than a day in the future"
            ),
            (
                btcTicker.replacingOccurrences(of: #""product_id":"BTC-USD""#, with: #""product_id":"BTC-GBP""#),
                "$.product_id: unknown product 'BTC-GBP'"
            ),
            (#"{"type":"error","reason":"no message"}"#, "$.message: expected a string, found nothing"),
        ])
    func malformed(frame: String, reason: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .malformed(reason))
        #expect(codec.read(.text(btcTicker), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }
}

@Suite("Coinbase stream over the WebSocket client", .timeLimit(.minutes(2)))
struct CoinbaseStreamLoopbackTests {
    @Test(
        "ticker.jsonl: subscribed as the script expects, acks and heartbeats said nothing, 3 quotes with the frames' values"
    )
    func ticker() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.transcript.error == nil)
        let eth = Quote(
            exchange: "coinbase", market: eth, last: decimal("3050.12"), open: decimal("2990"), high: decimal("3071"),
            low: decimal("2975.5"), change: decimal("60.12"), changePercent: decimal("2.0107"),
            changeBasis: .rolling24h,
            baseVolume: decimal("345678.1234"), timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_512),
            receivedAt: received)
        var later = btcQuote
        (later.last, later.change, later.changePercent) = (decimal("91240"), decimal("1740"), decimal("1.9441"))
        later.baseVolume = decimal("12346")
        later.timestamp = Timestamp(millisecondsSince1970: 1_796_290_201_136)
        #expect(
            run.transcript.readings == [
                .control, .control, .quotes([btcQuote], skipped: []), .quotes([eth], skipped: []), .control,
                .quotes([later], skipped: []),
            ])
        #expect(run.connections.first?.violations == [])
    }

    @Test("faults.jsonl: Coinbase's error message is a refusal, and its close ends the stream")
    func refused() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "USD")])
        #expect(
            run.transcript.readings == [
                .refused(code: "Failed to subscribe", message: "NOPE-USD is not a valid product")
            ])
        #expect(run.transcript.closeCode == 1000)
        #expect(run.connections.first?.violations == [])
    }
}
