import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import OKX

// OKX's `tickers` channel: the codec on its own (every frame kind, quirk and malformed frame),
// then the real WebSocket client against the loopback server playing
// Fixtures/okx/stream/*.jsonl.

private let btc = Market(base: "BTC", quote: "USDT")
private let eth = Market(base: "ETH", quote: "USDT")
private let received = Timestamp(millisecondsSince1970: 1_796_290_202_000)
private let codec = OKXTickerStream()
private let bed = TickerStreamBed(codec, venue: "okx", connector: WebSocketClient(), receivedAt: received)

/// The first BTC-USDT ticker of ticker.jsonl: every value a string, `ts` too.
private let btcTicker =
    #"{"instType":"SPOT","instId":"BTC-USDT","last":"91234.5","lastSz":"0.0012","askPx":"91234.6","askSz":"1.2","bidPx":"91234.5","bidSz":"0.8","open24h":"89500","high24h":"92000.1","low24h":"89000","volCcy24h":"1126345678.123","vol24h":"12345.678","sodUtc0":"89500","sodUtc8":"89500","ts":"1796290200136"}"#

/// A push of `tickers`.
private func push(_ tickers: String...) -> String {
    #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[\#(tickers.joined(separator: ","))]}"#
}

/// OKX's change is `last - open24h`, its percent rounded as the REST quote's.
private let btcQuote = Quote(
    exchange: "okx", market: btc, last: decimal("91234.5"), open: decimal("89500"), high: decimal("92000.1"),
    low: decimal("89000"), change: decimal("1734.5"), changePercent: decimal("1.9380"), changeBasis: .rolling24h,
    baseVolume: decimal("12345.678"), quoteVolume: decimal("1126345678.123"),
    timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_136), receivedAt: received)

@Suite("OKX stream codec")
struct OKXStreamCodecTests {
    @Test("one subscribe operation names every instrument, 300 to a message (about 13 KB of OKX's 64)")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth]) == [
                .text(
                    #"{"op":"subscribe","args":[{"channel":"tickers","instId":"BTC-USDT"},{"channel":"tickers","instId":"ETH-USDT"}]}"#
                )
            ])
        let markets = (1...301).map { Market(base: "COIN\($0)", quote: "USDT") }
        let messages = codec.subscribeMessages(for: markets)
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.bytes.count < 64 * 1024 })
        #expect(messages.last == .text(#"{"op":"subscribe","args":[{"channel":"tickers","instId":"COIN301-USDT"}]}"#))
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("a push is decoded through the REST ticker's mapping: string values, string ts")
    func ticker() {
        #expect(codec.read(.text(push(btcTicker)), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test("a push of several tickers loses only its bad entries, each named with its path")
    func skipped() {
        let bad = btcTicker.replacingOccurrences(of: #""instId":"BTC-USDT""#, with: #""instId":"ETH-USDT""#)
            .replacingOccurrences(of: #""last":"91234.5""#, with: #""last":"3.05E3""#)
        let euro = btcTicker.replacingOccurrences(of: #""instId":"BTC-USDT""#, with: #""instId":"BTC-EUR""#)
        #expect(
            codec.read(.text(push(bad, euro, btcTicker)), receivedAt: received)
                == bed.skipped(
                    "ETH-USDT", market: eth, path: "$.data[0].last",
                    reason: "'3.05E3' has an exponent: a decimal written as text must be written out in full",
                    keeping: [btcQuote]))
    }

    @Test(
        "acknowledgements, notices, pongs and other channels say nothing",
        arguments: [
            #"{"event":"subscribe","arg":{"channel":"tickers","instId":"BTC-USDT"},"connId":"a4d3ae55"}"#,
            #"{"event":"notice","code":"64008","msg":"The connection will soon be closed for a service upgrade.","connId":"a4d3ae55"}"#,
            #"{"event":"channel-conn-count","channel":"tickers","connCount":"2","connId":"a4d3ae55"}"#,
            "pong",
            #"{"arg":{"channel":"bbo-tbt","instId":"BTC-USDT"},"data":[{"asks":[],"bids":[],"ts":"1796290200136"}]}"#,
        ])
    func control(frame: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .control)
    }

    @Test("an error event is a refusal with OKX's code and message")
    func refused() {
        #expect(
            codec.read(
                .text(
                    #"{"event":"error","code":"60012","msg":"Invalid request: {\"op\": \"subscribe\"}","connId":"a4d3ae55"}"#
                ),
                receivedAt: received) == .refused(code: "60012", message: #"Invalid request: {"op": "subscribe"}"#))
    }

    @Test(
        "a broken message is malformed, with the path of what broke, and costs only itself",
        arguments: [
            ("pong!", "invalid JSON at byte 0: unexpected character 'p'"),
            (#"["tickers"]"#, "$: expected an object, found an array"),
            (
                #"{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":{}}"#,
                "$.data: expected an array, found an object"
            ),
            (#"{"data":[]}"#, "$.arg.channel: expected a string, found nothing"),
            (#"{"event":"error","msg":"no code"}"#, "$.code: expected a string or a number, found nothing"),
        ])
    func malformed(frame: String, reason: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .malformed(reason))
        #expect(codec.read(.text(push(btcTicker)), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test(
        "a ticker that breaks the grammar or the bounds is skipped with its path",
        arguments: [
            (#""last":"91234.5","#, "", "$.data[0].last", "expected a decimal, found nothing"),
            (#""last":"91234.5""#, #""last":"-1""#, "$.data[0].last", "'-1' is not a positive price"),
            (#""last":"91234.5""#, #""last":"0""#, "$.data[0].last", "'0' is not a positive price"),
            (#""last":"91234.5""#, #""last":91234.5e0"#, "$.data[0].last", ""),
            (
                #""ts":"1796290200136""#, #""ts":"4102444800000""#, "$.data[0].ts",
                "2100-01-01T00:00:00.000Z is more than a day in the future"
            ),
            (#""vol24h":"12345.678""#, #""vol24h":"1,234""#, "$.data[0].vol24h", "'1,234' is not a decimal number"),
        ])
    func badEntry(find: String, replace: String, path: String, reason: String) {
        let ticker = btcTicker.replacingOccurrences(of: find, with: replace)
        let reading = codec.read(.text(push(ticker)), receivedAt: received)
        if reason.isEmpty {
            // OKX writes strings, but a JSON number is read exactly as well.
            #expect(reading == .quotes([btcQuote], skipped: []))
        } else {
            #expect(
                reading
                    == bed.skipped("BTC-USDT", market: btc, path: path, reason: reason))
        }
    }
}

@Suite("OKX stream over the WebSocket client", .timeLimit(.minutes(2)))
struct OKXStreamLoopbackTests {
    @Test(
        "ticker.jsonl: subscribed as the script expects, acks and pong said nothing, 3 quotes with the frames' values")
    func ticker() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.transcript.error == nil)
        let eth = Quote(
            exchange: "okx", market: eth, last: decimal("3050.12"), open: decimal("2990"), high: decimal("3071"),
            low: decimal("2975.5"), change: decimal("60.12"), changePercent: decimal("2.0107"),
            changeBasis: .rolling24h,
            baseVolume: decimal("345678.1234"), quoteVolume: decimal("1049876543.21"),
            timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_512), receivedAt: received)
        var later = btcQuote
        (later.last, later.change, later.changePercent) = (decimal("91240"), decimal("1740"), decimal("1.9441"))
        (later.baseVolume, later.quoteVolume) = (decimal("12346"), decimal("1126375678.123"))
        later.timestamp = Timestamp(millisecondsSince1970: 1_796_290_201_136)
        #expect(
            run.transcript.readings == [
                .control, .control, .quotes([btcQuote], skipped: []), .quotes([eth], skipped: []), .control,
                .quotes([later], skipped: []),
            ])
        #expect(run.connections.first?.violations == [])
    }

    @Test("faults.jsonl: OKX's error event is a refusal; the connection stays open")
    func refused() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "USDT")], readings: 1)
        #expect(
            run.transcript.readings == [
                .refused(
                    code: "60018",
                    message:
                        "Wrong URL or channel:tickers,instId:NOPE-USDT doesn't exist. Please use the correct URL, channel and parameters referring to API document."
                )
            ])
        #expect(run.transcript.error == nil)
        #expect(run.connections.first?.violations == [])
    }
}
