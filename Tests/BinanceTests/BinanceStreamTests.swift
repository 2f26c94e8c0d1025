import AggCore
import AggJSON
import AggTestKit
import AggTransport
import Foundation
import Testing

@testable import Binance

// Binance's `@ticker` stream: the codec on its own (every frame kind, quirk and malformed
// frame), then the real WebSocket client against the loopback server playing
// Fixtures/binance/stream/*.jsonl.

private let btc = Market(base: "BTC", quote: "USDT")
private let eth = Market(base: "ETH", quote: "USDT")
private let received = Timestamp(millisecondsSince1970: 1_796_290_202_000)
private let codec = BinanceTickerStream()
private let bed = TickerStreamBed(codec, venue: "binance", connector: WebSocketClient(), receivedAt: received)

/// The first BTC/USDT event of ticker.jsonl, unwrapped.
private let btcEvent =
    #"{"e":"24hrTicker","E":1796290200136,"s":"BTCUSDT","p":"1734.56000000","P":"1.938","w":"91012.33000000","x":"89499.99000000","c":"91234.56000000","Q":"0.00120000","b":"91234.55000000","B":"1.50000000","a":"91234.56000000","A":"0.75000000","o":"89500.00000000","h":"92000.10000000","l":"89000.00000000","v":"12345.67800000","q":"1126345678.12345678","O":1796203800136,"C":1796290200136,"F":4100000000,"L":4101234567,"n":1234568}"#

/// `event` as the combined stream wraps it.
private func wrapped(_ event: String, stream: String = "btcusdt@ticker") -> String {
    #"{"stream":"\#(stream)","data":\#(event)}"#
}

private let btcQuote = Quote(
    exchange: "binance", market: btc, last: decimal("91234.56"), open: decimal("89500"), high: decimal("92000.1"),
    low: decimal("89000"), previousClose: decimal("89499.99"), change: decimal("1734.56"),
    changePercent: decimal("1.938"), changeBasis: .rolling24h, baseVolume: decimal("12345.678"),
    quoteVolume: decimal("1126345678.12345678"), timestamp: Timestamp(millisecondsSince1970: 1_796_290_200_136),
    receivedAt: received)

@Suite("Binance stream codec")
struct BinanceStreamCodecTests {
    @Test("SUBSCRIBE names each market's lower-case @ticker stream, 200 a message, numbered from 1")
    func subscribe() {
        #expect(
            codec.subscribeMessages(for: [btc, eth]) == [
                .text(#"{"method":"SUBSCRIBE","params":["btcusdt@ticker","ethusdt@ticker"],"id":1}"#)
            ])
        let markets = (1...201).map { Market(base: "C\($0)", quote: "USDT") }
        let messages = codec.subscribeMessages(for: markets)
        #expect(messages.count == 2)
        #expect(messages.last == .text(#"{"method":"SUBSCRIBE","params":["c201usdt@ticker"],"id":2}"#))
        let first = try? JSONParser.parse(messages.first?.bytes ?? [])
        #expect((try? JSONCursor(first ?? .null)["params"].elements().count) == 200)
        #expect(codec.subscribeMessages(for: []) == [])
    }

    @Test("a wrapped 24hrTicker is a quote through the REST mapping: E is its time, x its previous close")
    func ticker() {
        #expect(codec.read(.text(wrapped(btcEvent)), receivedAt: received) == .quotes([btcQuote], skipped: []))
        // A raw stream (an AGG_BINANCE_WS_URL ending in /ws) sends the event unwrapped.
        #expect(codec.read(.text(btcEvent), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }

    @Test("a last price before the window of zero (a new symbol) is no previous close")
    func zeroPreviousClose() {
        let event = btcEvent.replacingOccurrences(of: #""x":"89499.99000000""#, with: #""x":"0.00000000""#)
        var expected = btcQuote
        expected.previousClose = nil
        #expect(codec.read(.text(wrapped(event)), receivedAt: received) == .quotes([expected], skipped: []))
    }

    @Test(
        "acknowledgements and other events say nothing",
        arguments: [
            #"{"result":null,"id":1}"#, #"{"result":["btcusdt@ticker"],"id":3}"#,
            #"{"e":"serverShutdown","E":1796290200136}"#,
            #"{"stream":"btcusdt@kline_1m","data":{"e":"kline","E":1796290200136,"s":"BTCUSDT"}}"#,
        ])
    func control(frame: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .control)
    }

    @Test(
        "Binance's error answers are refusals with its code and message",
        arguments: [
            (
                #"{"error":{"code":2,"msg":"Invalid request: property name must be a string"},"id":1}"#,
                "2", "Invalid request: property name must be a string"
            ),
            (
                #"{"code":1,"msg":"Invalid value type: expected Boolean","id":4}"#, "1",
                "Invalid value type: expected Boolean"
            ),
        ])
    func refused(frame: String, code: String, message: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .refused(code: code, message: message))
    }

    @Test(
        "a broken message is malformed, with the path of what broke, and costs only itself",
        arguments: [
            (#"{"stream":"btcusdt@ticker","data":"#, "invalid JSON at byte 34: unexpected end of input"),
            ("[1]", "$: expected an object, found an array"),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""c":"91234.56000000","#, with: "")),
                "$.data.c: expected a decimal, found nothing"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""c":"91234.56000000""#, with: #""c":"9.123456E4""#)),
                "$.data.c: '9.123456E4' has an exponent: a decimal written as text must be written out in full"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""c":"91234.56000000""#, with: #""c":"-91234.56""#)),
                "$.data.c: '-91234.56' is not a positive price"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""c":"91234.56000000""#, with: #""c":"0.00000000""#)),
                "$.data.c: '0' is not a positive price"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""c":"91234.56000000""#, with: #""c":true"#)),
                "$.data.c: expected a decimal, found a boolean"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""E":1796290200136"#, with: #""E":4102444800000"#)),
                "$.data.E: 2100-01-01T00:00:00.000Z is more than a day in the future"
            ),
            (
                wrapped(btcEvent.replacingOccurrences(of: #""s":"BTCUSDT""#, with: #""s":"BTCXYZ""#)),
                "$.data.s: unknown symbol 'BTCXYZ'"
            ),
            (#"{"stream":"btcusdt@ticker","data":{"E":1796290200136}}"#, "$.data.e: expected a string, found nothing"),
        ])
    func malformed(frame: String, reason: String) {
        #expect(codec.read(.text(frame), receivedAt: received) == .malformed(reason))
        #expect(codec.read(.text(wrapped(btcEvent)), receivedAt: received) == .quotes([btcQuote], skipped: []))
    }
}

@Suite("Binance stream over the WebSocket client", .timeLimit(.minutes(2)))
struct BinanceStreamLoopbackTests {
    @Test("ticker.jsonl: subscribed as the script expects, Binance's ping answered, 3 quotes with the frames' values")
    func ticker() async throws {
        let run = try await bed.ticker(markets: [btc, eth], quotes: 3)
        #expect(run.transcript.error == nil)
        var eth = btcQuote
        eth.market = Market(base: "ETH", quote: "USDT")
        (eth.last, eth.open, eth.high, eth.low, eth.previousClose) = (
            decimal("3050.12"), decimal("2990"), decimal("3071"), decimal("2975.5"), nil
        )
        (eth.change, eth.changePercent, eth.baseVolume, eth.quoteVolume) = (
            decimal("60.12"), decimal("2.011"), decimal("345678.1234"), decimal("1049876543.21")
        )
        eth.timestamp = Timestamp(millisecondsSince1970: 1_796_290_200_512)
        var later = btcQuote
        (later.last, later.change, later.changePercent) = (decimal("91240"), decimal("1740"), decimal("1.944"))
        (later.baseVolume, later.quoteVolume) = (decimal("12346"), decimal("1126375678.12345678"))
        later.timestamp = Timestamp(millisecondsSince1970: 1_796_290_201_136)
        #expect(
            run.transcript.readings == [
                .control, .quotes([btcQuote], skipped: []), .quotes([eth], skipped: []), .quotes([later], skipped: []),
            ])
        #expect(run.connections.first?.violations == [])
        #expect(
            run.connections.first?.messages == [
                #"{"method":"SUBSCRIBE","params":["btcusdt@ticker","ethusdt@ticker"],"id":1}"#
            ])
    }

    @Test("faults.jsonl: Binance's error answer is a refusal, and its close ends the stream with its code")
    func refused() async throws {
        let run = try await bed.faults(markets: [Market(base: "NOPE", quote: "USDT")])
        #expect(
            run.transcript.readings == [.refused(code: "2", message: "Invalid request: property name must be a string")]
        )
        #expect(run.transcript.closeCode == 1008)
        #expect(run.connections.first?.violations == [])
    }
}
