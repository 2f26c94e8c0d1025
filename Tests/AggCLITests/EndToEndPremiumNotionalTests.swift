import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg premium --notional` binary, over real libcurl, against the loopback server
/// serving the venues' recordings in Fixtures/, with the order books answered here (small books
/// whose walks are computed by hand) and every book request counted.
@Suite("agg premium --notional end to end")
struct EndToEndPremiumNotionalTests {
    /// Upbit's BTC and ETH books in one answer (its `markets=` list), Binance's one a request.
    static func books(_ venue: String, _ request: LoopbackRequest) -> LoopbackReply? {
        switch (venue, request.path) {
        case ("upbit", "/v1/orderbook"):
            guard request.queryItems.contains(where: { $0.name == "markets" && $0.value.contains(",") }) else {
                return nil
            }
            return .json(
                #"[{"market":"KRW-BTC","timestamp":1723104736112,"orderbook_units":["#
                    + #"{"ask_price":80000000.0,"bid_price":79900000.0,"ask_size":1.0,"bid_size":1.0}]},"#
                    + #"{"market":"KRW-ETH","timestamp":1723104736112,"orderbook_units":["#
                    + #"{"ask_price":3400000.0,"bid_price":3390000.0,"ask_size":10.0,"bid_size":0.5}]}]"#)
        case ("binance", "/api/v3/depth"):
            if request.queryItems.contains(where: { $0.name == "symbol" && $0.value == "BTCUSDT" }) {
                return .json(#"{"lastUpdateId":1,"bids":[["60000.00","10.0"]],"asks":[["60100.00","10.0"]]}"#)
            }
            return .json(#"{"lastUpdateId":1,"bids":[["2470.00","100.0"]],"asks":[["2480.00","100.0"]]}"#)
        default:
            return nil
        }
    }

    static func text(_ cursor: JSONCursor) -> String { cursor.value?.serialized() ?? "" }

    // At exchangerate's USD->KRW 1331.529034 (USDT = USD), checked with Python's decimal module:
    // BTC kimchi: 10M KRW is 7,510.1629... USDT, bought at binance's 60,100 and sold on upbit's
    // 79,900,000: -0.1560...% -> -0.16 %. BTC reverse: 0.125 BTC at 80,000,000, sold at 60,000 =
    // 7,500 USDT = 9,986,467.755 KRW: -0.1353...% -> -0.14 %. ETH kimchi: upbit's bids take
    // 0.5 ETH only, bought at 2,480 (1,240 USDT = 1,651,096.00216 KRW), sold at 3,390,000:
    // +2.659...% -> 2.66 %. ETH reverse: 2.9411... ETH at 3,400,000 sold at 2,470: -3.268...%.
    @Test("BTC and ETH on upbit against binance at 10M KRW: Upbit's two books in one request, exact values")
    func upbitAgainstBinance() async throws {
        let server = try FixtureServer(override: Self.books)
        let run = try await AggBinary.run(
            ["premium", "BTC", "ETH", "-e", "upbit,binance", "--notional", "10M", "-f", "json"],
            environment: try server.privateEnvironment())
        #expect(run.status == 0, "\(run.error)")
        let json = try JSONCursor(JSONParser.parse(Array(run.output.utf8)))
        let bookRequests = server.requests.filter { $0.path.hasSuffix("/orderbook") || $0.path.hasSuffix("/depth") }
        let upbit = bookRequests.filter { $0.path == "/upbit/v1/orderbook" }
        #expect(upbit.count == 1)
        // By volume, BTC first; 30 levels a side, Upbit's deepest.
        #expect(upbit.first?.query == "markets=KRW-BTC,KRW-ETH&count=30")
        #expect(bookRequests.filter { $0.path == "/binance/api/v3/depth" }.count == 2)
        #expect(try json["fx"]["rate"].string() == "1331.529034")
        let rows = try json["rows"].elements()
        let btc = try #require(try rows.first { try $0["base"].string() == "BTC" })
        let eth = try #require(try rows.first { try $0["base"].string() == "ETH" })
        #expect(
            Self.text(btc["venues"][0]["atNotional"])
                == #"{"kimchi":{"exchange":"binance","percent":"-0.16","filled":"10000000","depthLimited":false,"problem":null},"#
                + #""reverse":{"exchange":"binance","percent":"-0.14","filled":"10000000","depthLimited":false,"problem":null}}"#
        )
        #expect(
            Self.text(eth["venues"][0]["atNotional"])
                == #"{"kimchi":{"exchange":"binance","percent":"2.66","filled":"1651096.00216","depthLimited":true,"problem":null},"#
                + #""reverse":{"exchange":"binance","percent":"-3.27","filled":"10000000","depthLimited":false,"problem":null}}"#
        )
        #expect(btc["venues"][1]["atNotional"].value == .null)
    }

    // Korbit's recorded asks, its own 0.0008 BTC withdrawal fee, Binance's recorded bids and
    // both published taker fees: the board's net REVERSE premium for korbit is agg arb's route
    // from korbit to binance, to the digit (-4.27 %). Binance publishes no withdrawal fee, so
    // KIMCHI has no net, and says why.
    @Test("--net on the recorded books: korbit's REVERSE is agg arb's net percent for korbit -> binance")
    func netMatchesArb() async throws {
        let server = try FixtureServer()
        let board = try await AggBinary.run(
            ["premium", "BTC", "-e", "korbit,binance", "--notional", "10M", "--net", "-f", "json"],
            environment: try server.privateEnvironment())
        let arb = try await AggBinary.run(
            ["arb", "BTC", "--from", "korbit", "--to", "binance", "--notional", "10M", "-f", "json"],
            environment: try server.privateEnvironment())
        #expect(board.status == 0, "\(board.error)")
        let venue = try JSONCursor(JSONParser.parse(Array(board.output.utf8)))["rows"][0]["venues"][0]
        let arbJSON = try JSONCursor(JSONParser.parse(Array(arb.output.utf8)))
        #expect(try arbJSON["netPercent"].string() == "-4.27")
        #expect(
            Self.text(venue["atNotional"])
                == #"{"kimchi":{"exchange":"binance","percent":null,"filled":null,"depthLimited":false,"#
                + #""problem":"the withdrawal fee of BTC on binance (BTC) is unknown: no net without it"},"#
                + #""reverse":{"exchange":"binance","percent":"-4.27","filled":"10000000","depthLimited":false,"problem":null}}"#
        )
    }
}
