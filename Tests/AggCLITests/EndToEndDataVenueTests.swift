import AggCore
import AggFixtures
import AggJSON
import AggTestKit
import Foundation
import Testing

/// A user adds a venue with a data file in `venues/` beside the config file: the real `agg`
/// binary, unchanged, lists it and quotes it from a loopback server answering its recordings.
@Suite("a user's venue file, end to end")
struct EndToEndDataVenueTests {
    /// Bitget's spot ticker, described by data: an envelope with a success code, the ticker in
    /// `$.data[0]`, epoch milliseconds as a string, the change as a fraction.
    static func bitget(baseURL: String) -> String {
        #"""
        {"format": 1, "id": "bitget", "name": "Bitget", "country": "SC", "homeCurrency": "USDT",
         "quoteCurrencies": ["USDT"], "baseURL": "\#(baseURL)", "requestsPerSecond": 10,
         "changeBasis": "rolling24h",
         "symbol": {"template": "{base}{quote}"},
         "time": {"format": "epochMilliseconds"},
         "errors": {"code": "$.code", "message": "$.msg", "successCodes": ["00000"], "notListed": ["40034"]},
         "ticker": {"path": "/api/v2/spot/market/tickers?symbol={symbol}", "item": "$.data[0]",
                    "fields": {"last": "$.lastPr", "open": "$.open", "high": "$.high24h", "low": "$.low24h",
                               "changeFraction": "$.change24h", "baseVolume": "$.baseVolume",
                               "quoteVolume": "$.quoteVolume", "time": "$.ts"}}}
        """#
    }

    /// Sample data in Bitget's v2 shapes (strings throughout, errors with HTTP 400 and a code).
    static let routes = #"""
        {"venue": "bitget", "recorded": "2024-08-08T08:12:15Z", "data": "sample", "routes": [
         {"path": "/api/v2/spot/market/tickers", "query": {"symbol": "BTCUSDT"}, "file": "ticker_BTCUSDT.json"},
         {"path": "/api/v2/spot/market/tickers", "file": "error_40034.json", "status": 400}]}
        """#
    static let ticker = #"""
        {"code":"00000","msg":"success","requestTime":1723104735100,"data":[{"symbol":"BTCUSDT","high24h":"59133.50","open":"57010.10","lastPr":"58410.55","low24h":"56411.23","quoteVolume":"1826712342.4411","baseVolume":"31277.104455","usdtVolume":"1826712342.44118","bidPr":"58410.54","askPr":"58410.55","bidSz":"0.4452","askSz":"1.0331","openUtc":"56811.40","ts":"1723104735027","changeUtc24h":"0.02816","change24h":"0.02456"}]}
        """#
    static let notFound = #"""
        {"code":"40034","msg":"Parameter NOPEUSDT does not exist","requestTime":1723104735200,"data":null}
        """#

    @Test(
        "agg lists the user's venue with its file and quotes it with exact decimals; a bad file is one line and exit 78"
    )
    func userVenue() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("agg-e2e-dv-\(UUID().uuidString)")
        let recordings = root.appendingPathComponent("recordings")
        let venues = root.appendingPathComponent("config/venues")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: venues, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, text) in [
            ("routes.json", Self.routes), ("ticker_BTCUSDT.json", Self.ticker), ("error_40034.json", Self.notFound),
        ] {
            try text.write(to: recordings.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let recorded = try FixtureRoutes(directory: recordings)
        let server = try LoopbackServer { request in
            guard let answer = try? recorded.answer(path: request.path, query: request.query) else {
                return .json("{\"code\":\"404\",\"msg\":\"no recording\"}", status: 404)
            }
            return LoopbackReply(status: answer.status, headers: answer.headers, body: answer.body)
        }
        defer { server.stop() }
        let config = root.appendingPathComponent("config/config.json")
        try "{}".write(to: config, atomically: true, encoding: .utf8)
        let file = venues.appendingPathComponent("bitget.json")
        try Self.bitget(baseURL: server.baseURL).write(to: file, atomically: true, encoding: .utf8)
        let environment = [
            "AGG_CONFIG": config.path, "AGG_HOME": root.appendingPathComponent("home").path,
        ]

        let listed = try await AggBinary.run(["exchanges", "-f", "json"], environment: environment)
        #expect(listed.status == 0)
        #expect(listed.error == "")
        let entries = try JSONCursor(try JSONParser.parse(listed.output))["exchanges"].elements()
        let bitget = try #require(try entries.first { try $0["id"].string() == "bitget" })
        #expect(try bitget["origin"].string() == "user")
        #expect(try bitget["file"].string() == file.path)
        #expect(try bitget["capabilities"].elements().map { try $0.string() } == ["ticker"])
        let bithumb = try #require(try entries.first { try $0["id"].string() == "bithumb" })
        #expect(try bithumb["origin"].string() == "builtIn")
        let gopax = try #require(try entries.first { try $0["id"].string() == "gopax" })
        #expect(try gopax["origin"].string() == "shipped")

        let quoted = try await AggBinary.run(
            ["quote", "BTC", "NOPE", "-e", "bitget", "-f", "json"], environment: environment)
        #expect(quoted.status == 1)
        #expect(
            quoted.errorLines == ["agg: bitget NOPE/USDT: not listed (error 40034: Parameter NOPEUSDT does not exist)"])
        let quote = JSONCursor(try JSONParser.parse(quoted.output))["quotes"][0]
        #expect(try quote["exchange"].string() == "bitget")
        #expect(try quote["last"].string() == "58410.55")
        #expect(try quote["high"].string() == "59133.5")
        #expect(try quote["changePercent"].string() == "2.456")
        #expect(try quote["quoteVolume"].string() == "1826712342.4411")
        #expect(try quote["timestamp"].string() == "2024-08-08T08:12:15.027Z")
        #expect(server.requests.map(\.path).sorted() == ["/api/v2/spot/market/tickers", "/api/v2/spot/market/tickers"])

        let broken = venues.appendingPathComponent("broken.json")
        try #"{"format": 1, "id": "broken", "name": "Broken", "country": "KR", "homeCurrency": "KRW"}"#
            .write(to: broken, atomically: true, encoding: .utf8)
        let withBroken = try await AggBinary.run(
            ["quote", "BTC", "-e", "bitget", "-f", "csv"], environment: environment)
        #expect(withBroken.status == 78)
        #expect(
            withBroken.errorLines == [
                "agg: venue file \(broken.path): $.quoteCurrencies: expected an array, found nothing"
            ])
        #expect(
            withBroken.output.split(separator: "\n").dropFirst().first?.hasPrefix("bitget,BTC/USDT,BTC,USDT,58410.55,")
                == true)
    }
}
