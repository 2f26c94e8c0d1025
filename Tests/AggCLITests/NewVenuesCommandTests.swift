import AggCore
import AggJSON
import AggTestKit
import AggVenues
import Foundation
import Testing

/// The venues of issue 11 (Coinone, Korbit, Kraken, OKX) through the CLI with the standard venue
/// list: listed by `agg exchanges`, quoted offline with exact decimals (and each its change
/// basis: Korbit says none), and quoted by the real binary over libcurl.
@Suite("Coinone, Korbit, Kraken and OKX in the CLI")
struct NewVenuesCommandTests {
    /// Each venue's BTC quote in its home currency, as `agg quote` prints it in JSON.
    static let btcQuotes: [(venue: String, json: String)] = [
        (
            "coinone",
            #"{"exchange":"coinone","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80640000","open":"79980000","high":"81490000","low":"77750000","previousClose":null,"change":"660000","changePercent":"0.8252","changeBasis":"rolling24h","baseVolume":"262.18439521","quoteVolume":"21034512874.2615","timestamp":"2024-08-08T08:12:14.981Z"}"#
        ),
        (
            "korbit",
            #"{"exchange":"korbit","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80645000","open":"79920000","high":"81470000","low":"77760000","previousClose":"79950000","change":"695000","changePercent":"0.87","changeBasis":null,"baseVolume":"184.35571236","quoteVolume":"14721590432.51286","timestamp":"2024-08-08T08:12:13.875Z"}"#
        ),
        (
            "kraken",
            #"{"exchange":"kraken","symbol":"BTC/USD","base":"BTC","quote":"USD","last":"58419.9","open":"57210.4","high":"59140","low":"56402","previousClose":null,"change":"1209.5","changePercent":"2.1141","changeBasis":"sinceUTCMidnight","baseVolume":"4318.24710582","quoteVolume":null,"timestamp":null}"#
        ),
        (
            "okx",
            #"{"exchange":"okx","symbol":"BTC/USDT","base":"BTC","quote":"USDT","last":"58415.3","open":"58801.2","high":"59140","low":"56402.1","previousClose":null,"change":"-385.9","changePercent":"-0.6563","changeBasis":"rolling24h","baseVolume":"8123.40812245","quoteVolume":"470712354.68233018","timestamp":"2024-08-08T08:12:15.012Z"}"#
        ),
    ]

    @Test(
        "agg exchanges lists each new venue with its country, currencies and capabilities",
        arguments: [
            ("coinone", "KR", "KRW", ["KRW"], "https://api.coinone.co.kr"),
            ("korbit", "KR", "KRW", ["KRW"], "https://api.korbit.co.kr"),
            ("kraken", "US", "USD", ["USD", "EUR", "USDT"], "https://api.kraken.com"),
            ("okx", "SC", "USDT", ["USDT", "USDC", "BTC"], "https://www.okx.com"),
        ])
    func exchanges(id: String, country: String, home: String, quotes: [String], baseURL: String) async throws {
        let run = await runCLI(["exchanges", "--format", "json"], registry: .standard)
        #expect(run.status == 0)
        let entries = try run.json()["exchanges"].elements()
        let entry = try #require(try entries.first { try $0["id"].string() == id })
        #expect(try entry["country"].string() == country)
        #expect(try entry["homeCurrency"].string() == home)
        #expect(try entry["quoteCurrencies"].elements().map { try $0.string() } == quotes)
        let transfers = ["coinone", "korbit"].contains(id) ? ["transferStatus"] : []
        #expect(
            try entry["capabilities"].elements().map { try $0.string() }
                == ["ticker", "allTickers", "markets", "candles", "trades", "orderBook"] + transfers + ["stream"])
        #expect(try entry["baseURL"].string() == baseURL)
    }

    @Test("agg quote BTC -e <venue> --offline: exact decimals from the sample data, exit 0", arguments: btcQuotes)
    func offlineQuote(venue: String, json: String) async throws {
        let run = await runCLI(["quote", "BTC", "-e", venue, "--offline", "--format", "json"], registry: .standard)
        #expect(run.status == 0)
        // The decimals exactly; the age members are QuoteAgeOutputTests'.
        #expect(AgeFields.stripped(text: run.output) == #"{"quotes":["# + json + #"],"errors":[]}"#)
        #expect(run.errorLines == ["agg: offline: \(venue) answers from sample data dated 2024-08-08T08:12:15Z"])
    }

    @Test(
        "several coins on one new venue share one request; an unlisted coin exits 1 and names itself",
        arguments: [
            ("coinone", ["https://api.coinone.co.kr/public/v2/ticker_new/KRW"]),
            ("korbit", ["https://api.korbit.co.kr/v2/tickers?symbol=btc_krw,eth_krw,nope_krw"]),
            ("kraken", ["https://api.kraken.com/0/public/Ticker"]),
            ("okx", ["https://www.okx.com/api/v5/market/tickers?instType=SPOT"]),
        ])
    func batch(venue: String, urls: [String]) async throws {
        let responder = try FixtureResponder(
            venues: [
                "coinone": "https://api.coinone.co.kr", "korbit": "https://api.korbit.co.kr",
                "kraken": "https://api.kraken.com", "okx": "https://www.okx.com",
            ])
        let client = ScriptedHTTPClient { request in try responder.respond(to: request) }
        let run = await runCLI(
            ["quote", "BTC", "ETH", "NOPE", "-e", venue, "-f", "csv"], http: client, registry: .standard)
        #expect(run.status == 1)
        #expect(client.requests.map(\.url) == urls)
        #expect(run.output.split(separator: "\n").count == 3)
        #expect(run.errorLines.last?.hasPrefix("agg: \(venue) NOPE/") == true)
        #expect(run.errorLines.last?.hasSuffix(": not listed") == true)
    }

    @Test("the real binary asks the four venues over libcurl and prints their exact decimals")
    func endToEnd() async throws {
        let server = try FixtureServer(venues: ["coinone", "korbit", "kraken", "okx"])
        defer { server.stop() }
        var environment = server.environment
        environment["AGG_HOME"] = NSTemporaryDirectory() + "agg-e2e-" + UUID().uuidString
        let run = try await AggBinary.run(
            ["quote", "BTC", "-e", "coinone,korbit,kraken,okx", "--format", "json"], environment: environment)
        #expect(run.status == 0)
        #expect(run.error == "")
        let quotes = try JSONCursor(try JSONParser.parse(run.output))["quotes"].elements()
        #expect(quotes.map { $0.value.map(AgeFields.stripped)?.serialized() ?? "" } == Self.btcQuotes.map(\.json))
        #expect(
            Set(server.requests.map(\.target)) == [
                "/coinone/public/v2/ticker_new/KRW/BTC", "/korbit/v2/tickers?symbol=btc_krw",
                "/kraken/0/public/Ticker?pair=XBTUSD", "/okx/api/v5/market/ticker?instId=BTC-USDT",
            ])
    }
}
