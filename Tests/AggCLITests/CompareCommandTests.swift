import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// Every venue's base URL, for answering from its recordings.
private let venueBases = [
    "bithumb": "https://api.bithumb.com", "upbit": "https://api.upbit.com", "binance": "https://api.binance.com",
    "coinbase": "https://api.exchange.coinbase.com",
]

/// A network where every venue answers from its recordings and the test FX source answers
/// `fxBody` with `fxStatus`, each answer `delay` late; `override` may answer a request first.
private func network(
    delay: Duration = .zero, fxStatus: Int = 200, fxBody: String = TestFXAdapter.body,
    override: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse? = { _ in nil }
) throws -> AsyncScriptedHTTPClient {
    let responder = try FixtureResponder(venues: venueBases)
    return AsyncScriptedHTTPClient { request in
        if delay > .zero { try await Task.sleep(for: delay) }
        if let answer = try override(request) { return answer }
        if request.url.hasPrefix(TestFXAdapter.descriptor.defaultBaseURL) {
            return HTTPResponse(status: fxStatus, headers: [], body: Array(fxBody.utf8), url: request.url)
        }
        return try responder.respond(to: request)
    }
}

private func compare(_ arguments: [String], http: (any HTTPClient)? = nil, registry: AdapterRegistry = registryWithFX())
    async throws -> CLIRun
{
    await runCLI(["compare"] + arguments, http: try http ?? network(), registry: registry, now: compareNow)
}

/// The clock of these runs, 2025-11-30T00:00:00Z: after the FX table, so every age is fixed.
let compareNow = Timestamp(millisecondsSince1970: 1_764_460_800_000)

extension JSONCursor {
    /// The value here as compact JSON text, for comparing whole objects.
    fileprivate func serialized() -> String {
        value?.serialized() ?? ""
    }
}

@Suite("agg compare")
struct CompareCommandTests {
    @Test("JSON has exactly the documented shape: FX lines, the reference, venues and errors")
    func jsonShape() async throws {
        let run = try await compare(["BTC", "--format", "json"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"base":"BTC","currency":"KRW","fx":[{"from":"USD","to":"KRW","rate":"1442.35","source":"testfx","asOf":"2025-11-29T23:00:00Z","attribution":"Rates by Test FX"},{"from":"USDT","to":"KRW","rate":"1442.35","source":"assumed equal to USD","asOf":null,"attribution":null}],"reference":{"method":"median of venues not quoted in KRW","price":"84264510.148"},"venues":[{"exchange":"binance","symbol":"BTC/USDT","last":"58412.07","rate":"1442.35","lastConverted":"84250649.1645","premiumPercent":"-0.02","receivedAt":"2025-11-30T00:00:00.000Z","ageSeconds":"41356065.013","stale":true},{"exchange":"bithumb","symbol":"BTC/KRW","last":"80630000","rate":"1","lastConverted":"80630000","premiumPercent":"-4.31","receivedAt":"2025-11-30T00:00:00.000Z","ageSeconds":"41356064.973","stale":true},{"exchange":"coinbase","symbol":"BTC/USD","last":"58431.29","rate":"1442.35","lastConverted":"84278371.1315","premiumPercent":"0.02","receivedAt":"2025-11-30T00:00:00.000Z","ageSeconds":"41356065.126","stale":true},{"exchange":"upbit","symbol":"BTC/KRW","last":"80651000","rate":"1","lastConverted":"80651000","premiumPercent":"-4.29","receivedAt":"2025-11-30T00:00:00.000Z","ageSeconds":"41356064.888","stale":true}],"errors":[]}

                """)
        #expect(run.error.isEmpty)
    }

    @Test("the table rounds to the currency's minor unit and states the FX lines and the USDT assumption")
    func table() async throws {
        let run = try await compare(["BTC", "-e", "upbit,binance,coinbase", "--format", "table"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                VENUE     MARKET          LAST      RATE      IN KRW   PREMIUM         AGE
                upbit     BTC/KRW   80,651,000         1  80,651,000  ▼ -4.29%  478d stale
                binance   BTC/USDT   58,412.07  1,442.35  84,250,649  ▼ -0.02%  478d stale
                coinbase  BTC/USD    58,431.29  1,442.35  84,278,371  ▲ +0.02%  478d stale

                Reference: 84,264,510 KRW, median of venues not quoted in KRW (binance, coinbase)
                FX: USD→KRW 1,442.35 from testfx (Rates by Test FX), as of 2025-11-29 23:00:00 UTC
                FX: USDT→KRW 1,442.35 assumed equal to USD (--usdt assume)

                """)
    }

    @Test("colour marks premiums up and down when asked for")
    func colour() async throws {
        let run = try await compare(["BTC", "-e", "upbit,binance,coinbase", "-f", "table", "--color", "always"])
        #expect(run.output.contains("\u{1B}[32m▲ +0.02%\u{1B}[0m"))
        #expect(run.output.contains("\u{1B}[31m▼ -4.29%\u{1B}[0m"))
    }

    @Test("--usdt market prices USDT at the first Korean venue that lists USDT/KRW, and says which")
    func usdtMarket() async throws {
        let run = try await compare(["BTC", "-e", "binance,upbit,bithumb", "--usdt", "market", "-f", "json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(
            try json["fx"].elements().map { $0.serialized() }
                == [
                    #"{"from":"USDT","to":"KRW","rate":"1373","source":"upbit USDT/KRW","asOf":"2024-08-08T08:12:15Z","attribution":null}"#
                ])
        let binance = json["venues"][0]
        #expect(try binance["rate"].string() == "1373")
        #expect(try binance["lastConverted"].string() == "80199772.11")
        #expect(try json["reference"]["price"].string() == "80199772.11")
        #expect(try json["venues"][1]["premiumPercent"].string() == "0.56")
        #expect(try json["venues"][2]["premiumPercent"].string() == "0.54")

        let table = try await compare(["BTC", "-e", "binance,upbit", "--usdt", "market", "-f", "table"])
        #expect(
            table.output.contains(
                "FX: USDT→KRW 1,373 from upbit USDT/KRW, as of 2024-08-08 08:12:15 UTC (--usdt market)"))
    }

    @Test("--in USD divides KRW venues by USD→KRW and rounds the table to cents")
    func inUSD() async throws {
        let run = try await compare(["BTC", "--in", "usd", "-f", "json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try json["currency"].string() == "USD")
        #expect(try json["reference"]["method"].string() == "median of venues not quoted in USD")
        #expect(try json["reference"]["price"].string() == "55916.386452664055")
        let upbit = json["venues"][3]
        #expect(try upbit["rate"].string() == "0.000693312996")
        #expect(try upbit["lastConverted"].string() == "55916.386452664055")
        #expect(try upbit["premiumPercent"].string() == "0.00")
        #expect(try json["venues"][1]["lastConverted"].string() == "55901.826879744861")
        #expect(try json["venues"][1]["premiumPercent"].string() == "-0.03")
        #expect(try json["venues"][2]["premiumPercent"].string() == "4.50")
        #expect(
            json["fx"][1].serialized()
                == #"{"from":"USDT","to":"USD","rate":"1","source":"assumed equal to USD","asOf":null,"attribution":null}"#
        )

        let table = try await compare(["BTC", "--in", "USD", "-e", "upbit", "-f", "table"])
        #expect(table.output.contains("55,916.39"))
    }

    @Test("CSV has a header and one row per compared venue")
    func csv() async throws {
        let run = try await compare(["BTC", "-e", "upbit,coinbase", "-f", "csv"])
        #expect(
            run.output == """
                exchange,symbol,last,currency,rate,lastConverted,premiumPercent,receivedAt,ageSeconds,stale
                upbit,BTC/KRW,80651000,KRW,1,80651000,-4.30,2025-11-30T00:00:00.000Z,41356064.888,true
                coinbase,BTC/USD,58431.29,KRW,1442.35,84278371.1315,0.00,2025-11-30T00:00:00.000Z,41356065.126,true

                """)
    }

    @Test("a venue that does not list the coin is shown as not listed and does not fail the command")
    func notListed() async throws {
        let notFound = Array(#"{"message":"NotFound"}"#.utf8)
        let http = try network { request in
            request.url.contains("coinbase")
                ? HTTPResponse(status: 404, headers: [], body: notFound, url: request.url) : nil
        }
        let run = try await compare(["BTC", "-f", "json"], http: http)
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try json["venues"].elements().map { try $0["exchange"].string() } == ["binance", "bithumb", "upbit"])
        #expect(
            json["errors"].serialized()
                == #"[{"exchange":"coinbase","symbol":"BTC/USD","kind":"notListed","code":"404","message":"NotFound"}]"#
        )
        #expect(try json["reference"]["price"].string() == "84250649.1645")
        #expect(run.error.isEmpty)

        let table = try await compare(["BTC", "-f", "table"], http: http)
        #expect(table.output.contains("\ncoinbase  BTC/USD   not listed\n"))
    }

    @Test("venue-specific not-found answers all count as not listed; nothing listed at all is exit 1")
    func listedNowhere() async throws {
        let run = try await compare(["NOPE", "-f", "json"])
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try json["venues"].elements().isEmpty)
        #expect(
            try json["errors"].elements().map {
                "\(try $0["exchange"].string()) \(try $0["kind"].string()) \(try $0["code"].string())"
            }
                == [
                    "binance notListed -1121", "bithumb notListed 5500", "coinbase notListed 404",
                    "upbit notListed 404",
                ])
        #expect(run.errorLines == ["agg: no venue lists NOPE"])
    }

    @Test("a failing venue becomes an error entry and a failed row; the others still answer; exit 1")
    func venueFails() async throws {
        let http = try network { request in
            if request.url.contains("binance") { throw TransportError.timeout(url: request.url, seconds: 10) }
            return nil
        }
        let run = try await compare(["BTC", "-f", "json"], http: http)
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try json["venues"].elements().count == 3)
        #expect(try json["reference"]["price"].string() == "84278371.1315")
        #expect(try json["errors"][0]["exchange"].string() == "binance")
        #expect(try json["errors"][0]["symbol"].string() == "BTC/USDT")
        #expect(try json["errors"][0]["kind"].string() == "timeout")
        #expect(
            run.errorLines == [
                "agg: binance BTC/USDT: no answer within 10 s from https://api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT"
            ])
        let table = try await compare(["BTC", "-f", "table"], http: http)
        #expect(table.output.contains("\nbinance   BTC/USDT      failed                         timeout\n"))
        #expect(table.status == 1)
    }

    @Test("HTTP 451 from Binance says plainly that the venue refuses this location")
    func restrictedLocation() async throws {
        let http = try network { request in
            request.url.contains("binance") ? HTTPResponse(status: 451, headers: [], body: [], url: request.url) : nil
        }
        let run = try await compare(["BTC", "-f", "json"], http: http)
        #expect(run.status == 1)
        #expect(
            try run.json()["errors"][0].serialized()
                == #"{"exchange":"binance","symbol":"BTC/USDT","kind":"locationRestricted","code":"451","message":"HTTP 451: the venue refuses requests from this location (restricted location)"}"#
        )
    }

    @Test("without the FX rate the venues needing it are failed conversions with a clear message; exit 1")
    func fxUnavailable() async throws {
        let run = try await compare(["BTC", "-f", "json"], http: try network(fxStatus: 503, fxBody: "unavailable"))
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try json["fx"].elements().isEmpty)
        #expect(json["venues"][0]["lastConverted"].value == .null)
        #expect(try json["venues"][0]["last"].string() == "58412.07")
        let message = "cannot convert to KRW: no USD→KRW rate (testfx: HTTP 503 from https://fx.test/latest/USD)"
        #expect(
            json["errors"].serialized()
                == "[{\"exchange\":\"binance\",\"symbol\":\"BTC/USDT\",\"kind\":\"conversion\",\"code\":null,\"message\":\"\(message)\"},"
                + "{\"exchange\":\"coinbase\",\"symbol\":\"BTC/USD\",\"kind\":\"conversion\",\"code\":null,\"message\":\"\(message)\"},"
                + "{\"exchange\":\"testfx\",\"symbol\":null,\"kind\":\"http\",\"code\":\"503\",\"message\":\"HTTP 503 from https://fx.test/latest/USD\"}]"
        )
        #expect(run.errorLines == ["agg: binance BTC/USDT: \(message)", "agg: coinbase BTC/USD: \(message)"])
        // The KRW venues are not compared with themselves: no global price, no reference, no premium.
        #expect(json["reference"].value == .null)
        #expect(try json["venues"].elements().allSatisfy { $0["premiumPercent"].value == .null })
        let table = try await compare(["BTC", "-f", "table"], http: try network(fxStatus: 503, fxBody: ""))
        #expect(table.output.contains("\nbinance   BTC/USDT   58,412.07     -     no rate  478d stale\n"))
        #expect(!table.output.contains("PREMIUM"))
        #expect(!table.output.contains("Reference:"))
    }

    @Test("an FX source answering a zero rate: the conversions needing it fail and say why; exit 1")
    func zeroFXRate() async throws {
        let zero = #"{"base":"USD","time":1764457200,"rates":{"USD":1,"KRW":"0"}}"#
        for currency in ["KRW", "USD"] {
            let run = try await compare(
                ["BTC", "--in", currency, "-e", "bithumb,coinbase", "-f", "json"], http: try network(fxBody: zero))
            #expect(run.status == 1)
            let failing = currency == "KRW" ? "coinbase BTC/USD" : "bithumb BTC/KRW"
            #expect(
                run.errorLines == [
                    "agg: \(failing): cannot convert to \(currency): no USD→KRW rate (testfx: KRW rate 0 refused: an exchange rate must be above zero)"
                ])
        }
    }

    @Test("a zero USDT/KRW price at the first Korean venue is passed over for the next, with the reason kept")
    func zeroUSDTPrice() async throws {
        let recorded = String(decoding: try Fixtures.bytes("upbit/ticker_KRW-USDT.json"), as: UTF8.self)
        let zeroPrice = recorded.replacingOccurrences(of: "\"trade_price\":1373.00000000", with: "\"trade_price\":0")
        #expect(zeroPrice != recorded)
        let zeroUpbit = try network { request in
            if request.url.hasSuffix("/public/ticker/USDT_KRW") {
                throw TransportError.connection(url: request.url, detail: "down")
            }
            guard request.url.contains("markets=KRW-USDT") else { return nil }
            return HTTPResponse(status: 200, headers: [], body: Array(zeroPrice.utf8), url: request.url)
        }
        let run = try await compare(
            ["BTC", "-e", "upbit,binance", "--usdt", "market", "-f", "json"], http: zeroUpbit)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: binance BTC/USDT: cannot convert to KRW: no USDT→KRW rate (upbit: unexpected response at $[0].trade_price: '0' is not a positive price; bithumb: connection to https://api.bithumb.com/public/ticker/USDT_KRW failed: down)"
            ])
    }

    @Test("compare USDT offline: Upbit's recorded USDT/KRW over the recorded USD→KRW FX rate (USDT = USD)")
    func tetherPremiumRecorded() async throws {
        // Recorded: USD→KRW 1331.529034 (exchangerate, 2024-08-21), USDT/KRW 1373 on Upbit.
        // (1373 / 1331.529034 − 1) × 100 = 3.1145…
        let run = await runCLI(["compare", "USDT", "-e", "upbit", "--offline", "-f", "json"], now: compareNow)
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"base":"USDT","currency":"KRW","fx":[{"from":"USD","to":"KRW","rate":"1331.529034","source":"exchangerate","asOf":"2024-08-21T00:02:31Z","attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)"}],"reference":{"method":"the USD→KRW rate (USDT = USD)","price":"1331.529034"},"venues":[{"exchange":"upbit","symbol":"USDT/KRW","last":"1373","rate":"1","lastConverted":"1373","premiumPercent":"3.11","receivedAt":"2025-11-30T00:00:00.000Z","ageSeconds":"41356064.350","stale":true}],"errors":[]}

                """)
        let table = await runCLI(["compare", "USDT", "-e", "upbit", "--offline", "-f", "table"], now: compareNow)
        #expect(
            table.output == """
                VENUE  MARKET     LAST  RATE  IN KRW   PREMIUM         AGE
                upbit  USDT/KRW  1,373     1   1,373  ▲ +3.11%  478d stale

                Reference: 1,332 KRW, the USD→KRW rate (USDT = USD)
                FX: USD→KRW 1,331.529034 from exchangerate (Rates By Exchange Rate API (https://www.exchangerate-api.com)), as of 2024-08-21 00:02:31 UTC

                """)
    }

    @Test("compare USDT: each KRW venue's USDT/KRW against the FX rate, in KRW and in USD")
    func tetherPremium() async throws {
        // Bithumb's answer is sample data built from the USDT entry of its recorded ALL_KRW
        // answer (the recordings have no single USDT ticker); Upbit's is recorded (1373). The
        // test FX source says USD→KRW 1442.35:
        // (1372 / 1442.35 − 1) × 100 = −4.877…, (1373 / 1442.35 − 1) × 100 = −4.808…
        let http = try network { request in
            guard request.url.hasSuffix("/public/ticker/USDT_KRW") else { return nil }
            let body = """
                {"status":"0000","data":{"opening_price":"1375","closing_price":"1372","min_price":"1369",\
                "max_price":"1381","units_traded":"45878951.23654789","acc_trade_value":"62898741254.2156",\
                "prev_closing_price":"1376","units_traded_24H":"61254789.12457896",\
                "acc_trade_value_24H":"84024578541.3698","fluctate_24H":"-4","fluctate_rate_24H":"-0.29",\
                "date":"1723104735027"}}
                """
            return HTTPResponse(status: 200, headers: [], body: Array(body.utf8), url: request.url)
        }
        let run = try await compare(["USDT", "-e", "bithumb,upbit", "-f", "json"], http: http)
        #expect(run.status == 0)
        #expect(
            try run.json()["reference"].serialized() == #"{"method":"the USD→KRW rate (USDT = USD)","price":"1442.35"}"#
        )
        #expect(try run.json()["venues"].elements().map { try $0["premiumPercent"].string() } == ["-4.88", "-4.81"])
        // In USD the reference is one dollar: 1372 / 1442.35 = 0.951225430721 (12 decimals).
        let usd = try await compare(["USDT", "--in", "USD", "-e", "bithumb,upbit", "-f", "csv"], http: http)
        #expect(
            usd.output == """
                exchange,symbol,last,currency,rate,lastConverted,premiumPercent,receivedAt,ageSeconds,stale
                bithumb,USDT/KRW,1372,USD,0.000693312996,0.951225430721,-4.88,2025-11-30T00:00:00.000Z,41356064.973,true
                upbit,USDT/KRW,1373,USD,0.000693312996,0.951918743717,-4.81,2025-11-30T00:00:00.000Z,41356064.350,true

                """)
        let table = try await compare(["USDT", "--in", "USD", "-e", "bithumb,upbit", "-f", "table"], http: http)
        #expect(table.output.contains("\nReference: 1.00 USD, one US dollar (USDT = USD)\n"))
    }

    @Test("compare USDT without the FX rate: no premium, and a line saying why; exit 1")
    func tetherPremiumWithoutRate() async throws {
        let run = try await compare(
            ["USDT", "-e", "upbit", "-f", "json"], http: try network(fxStatus: 503, fxBody: "unavailable"))
        #expect(run.status == 1)
        #expect(try run.json()["reference"].value == .null)
        #expect(try run.json()["venues"][0]["premiumPercent"].value == .null)
        #expect(
            run.errorLines == [
                "agg: no premium for USDT: no USD→KRW rate (testfx: HTTP 503 from https://fx.test/latest/USD)"
            ])
    }

    @Test("with no FX source registered the message says so")
    func noFXSource() async throws {
        let run = try await compare(["BTC", "-e", "coinbase", "-f", "json"], registry: venueRegistry())
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: coinbase BTC/USD: cannot convert to KRW: no USD→KRW rate (no exchange-rate source is registered)"
            ])
    }

    @Test("KRW venues alone need no FX request")
    func domesticOnly() async throws {
        let http = try network()
        let run = try await compare(["BTC", "-e", "upbit,bithumb", "-f", "json"], http: http)
        #expect(run.status == 0)
        #expect(try run.json()["reference"]["method"].string() == "median of all venues")
        #expect(!http.requests.contains { $0.url.hasPrefix("https://fx.test") })
    }

    /// The peak count of requests in flight proves the fan-out without any clock: all 8 are
    /// out at once. The wall-time bound tells one round trip from eight: the same command with
    /// instant answers, run just before, measures what this machine takes for everything but the
    /// waiting (the parallel suite shares two cores, and CI's are loaded), and the slow run may
    /// take at most three round trips more than that, where asking one after another would take
    /// eight. `agg-bench` measures the real figure on the built binary.
    @Test("every venue, the FX source and USDT/KRW are asked at once: slow answers take one round trip")
    func concurrent() async throws {
        let delay = Duration.seconds(1)
        let clock = ContinuousClock()
        let instantStart = clock.now
        let instant = try await compare(["BTC", "--usdt", "market", "-f", "json"], http: try network())
        let work = clock.now - instantStart
        let http = try network(delay: delay)
        let start = clock.now
        let run = try await compare(["BTC", "--usdt", "market", "-f", "json"], http: http)
        let elapsed = clock.now - start
        #expect(instant.status == 0)
        #expect(run.status == 0)
        #expect(run.output == instant.output)
        #expect(http.requests.count == 8)
        #expect(http.peakConcurrentRequests == 8)
        #expect(elapsed - work < delay * 3, "took \(elapsed), \(work) of it without waiting")
    }

    @Test(
        "bad command lines exit 64 with one line and no request",
        arguments: [
            (["compare"], "'agg compare' needs more arguments"),
            (["compare", "BTC", "ETH/KRW"], "compare takes a coin such as BTC, not a market ('ETH/KRW')"),
            (["compare", "BTC/KRW"], "compare takes a coin such as BTC, not a market"),
            (["compare", "B TC"], "invalid symbol 'B TC'"),
            (["compare", "BTC", "--in", "KRWW"], "invalid currency code 'KRWW'"),
            (["compare", "BTC", "--in", "US1"], "invalid currency code 'US1'"),
            (
                ["compare", "BTC", "--usdt", "maybe"],
                "invalid value 'maybe' for --usdt; expected one of: assume, market"
            ),
            (["compare", "BTC", "--exchange", "nope"], "unknown exchange 'nope'"),
            (["compare", "BTC", "--exchange", "testfx"], "testfx cannot give a ticker"),
            (["compare", "BTC", "--timeout", "0"], "invalid --timeout '0'"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let http = try network()
        let run = await runCLI(arguments, http: http, registry: registryWithFX())
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(http.requests.isEmpty)
    }

    @Test("a venue named for its own quote currency is not listed, and no request is made for it")
    func ownQuoteCurrency() async throws {
        let http = try network()
        let run = try await compare(["USDT", "-e", "binance,upbit", "-f", "json"], http: http)
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try json["errors"][0]["message"].string() == "USDT is binance's own quote currency")
        #expect(try json["venues"][0]["lastConverted"].string() == "1373")
        #expect(!http.requests.contains { $0.url.contains("binance") })
    }

    @Test("--offline answers from the recordings; a source without recordings fails its conversions")
    func offline() async throws {
        let run = await runCLI(
            ["compare", "BTC", "-e", "upbit,binance", "--offline", "-f", "json"], registry: registryWithFX())
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try json["venues"][0]["lastConverted"].string() == "80651000")
        #expect(
            try json["errors"][0]["message"].string()
                == "cannot convert to KRW: no USD→KRW rate (offline data: no fixture answers for testfx: "
                + Fixtures.directory.appendingPathComponent("testfx").path + " does not exist)")
        #expect(
            run.errorLines.first
                == "agg: offline: upbit answers from a recorded snapshot from 2024-08-08T08:12:15Z, with some sample data"
        )
    }
}

@Suite("agg quote across venues")
struct QuoteAcrossVenuesTests {
    @Test("a bare symbol asks every venue in its home currency, offline")
    func everyVenue() async throws {
        let run = await runCLI(["quote", "BTC", "--offline", "--format", "json"])
        #expect(run.status == 0)
        let quotes = try run.json()["quotes"].elements()
        #expect(
            try quotes.map { "\(try $0["exchange"].string()) \(try $0["symbol"].string()) \(try $0["last"].string())" }
                == [
                    "binance BTC/USDT 58412.07", "bithumb BTC/KRW 80630000", "coinbase BTC/USD 58431.29",
                    "upbit BTC/KRW 80651000",
                ])
        #expect(run.errorLines.count == 4)
    }

    @Test("--quote USDT asks only the venues that quote USDT")
    func quoteCurrency() async throws {
        let run = await runCLI(["quote", "BTC", "--quote", "USDT", "--offline", "--format", "json"])
        #expect(run.status == 0)
        #expect(
            try run.json()["quotes"].elements().map { "\(try $0["exchange"].string()) \(try $0["last"].string())" }
                == ["binance 58412.07", "coinbase 58420.55", "upbit 58500.1"])
    }

    @Test("several coins on Upbit share one request")
    func upbitBatch() async throws {
        let http = try network()
        let run = await runCLI(["quote", "BTC", "ETH", "-e", "upbit", "-f", "json"], http: http)
        #expect(run.status == 0)
        #expect(http.requests.map(\.url) == ["https://api.upbit.com/v1/ticker?markets=KRW-BTC,KRW-ETH"])
        #expect(try run.json()["quotes"][1]["changePercent"].string() == "-0.40923707")
    }

    @Test("several coins with --usdt market: each Korean USDT/KRW is asked once, not once per coin")
    func usdtMarketOnce() async throws {
        let http = try network()
        let run = try await compare(
            ["BTC", "ETH", "-e", "binance,upbit,bithumb", "--usdt", "market", "-f", "json"], http: http)
        #expect(run.status == 0, "\(run.error)")
        let comparisons = try run.json()["comparisons"].elements()
        #expect(try comparisons.map { try $0["fx"][0]["source"].string() } == ["upbit USDT/KRW", "upbit USDT/KRW"])
        let usdt = http.requests.filter { $0.url.contains("KRW-USDT") || $0.url.contains("USDT_KRW") }
        #expect(usdt.count == 2, "\(usdt.map(\.url))")
    }

    @Test("several coins: one comparison each, the FX source asked once; CSV is one table")
    func severalCoins() async throws {
        let http = try network()
        let run = try await compare(["BTC", "ETH", "btc", "--format", "json"], http: http)
        #expect(run.status == 0, "\(run.error)")
        let comparisons = try run.json()["comparisons"].elements()
        #expect(try comparisons.map { try $0["base"].string() } == ["BTC", "ETH"])
        #expect(try comparisons[1]["reference"]["price"].string() == "3575124.098")
        #expect(
            try comparisons[1]["venues"].elements().map { try $0["premiumPercent"].string() }
                == ["-0.01", "-4.73", "0.01", "-4.70"])
        #expect(http.requests.filter { $0.url.hasPrefix("https://fx.test") }.count == 1)

        let csv = try await compare(["BTC", "ETH", "--format", "csv"])
        let lines = csv.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        #expect(lines[0] == CompareRenderingHeader.csv)
        #expect(lines[8].hasPrefix("upbit,ETH/KRW,3407000,KRW,1,3407000,-4.70"))
        let market = try await compare(["BTC", "ETH/KRW"])
        #expect(market.status == 64)
    }
}

/// The compare CSV header, as documented.
private enum CompareRenderingHeader {
    static let csv = "exchange,symbol,last,currency,rate,lastConverted,premiumPercent,receivedAt,ageSeconds,stale"
}

@Suite("agg compare with recorded premiums")
struct ComparePercentileTests {
    @Test("the premium's percentile over the last 7 days of recorded premiums, for the venues that have them")
    func percentile() async throws {
        try await withTemporaryHome { home in
            let store = try Store.open(path: home + "/agg.sqlite")
            let now = Timestamp.now
            // bithumb's BTC premium in this comparison is -4.31 %: at or above three of the four.
            for (hours, percent) in [(1, "-5.00"), (5, "-4.50"), (30, "-4.31"), (100, "-4.00")] {
                let time = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - Int64(hours) * 3_600_000)
                try await store.record(
                    RecordedTick(
                        time: time,
                        premiums: [
                            PremiumPoint(
                                time: time, exchange: "bithumb", symbol: "BTC", basis: "usd", fxSource: "testfx",
                                percent: Decimal(string: percent) ?? 0)
                        ]))
            }
            let run = await runCLI(
                ["compare", "BTC", "--format", "json"], environment: ["AGG_HOME": home], http: try network(),
                registry: registryWithFX())
            #expect(run.status == 0, "\(run.error)")
            let venues = try run.json()["venues"].elements()
            #expect(try venues.map { try $0["exchange"].string() }.prefix(2) == ["binance", "bithumb"])
            #expect(try venues[1]["premiumPercent"].string() == "-4.31")
            #expect(try venues[1]["premiumPercentile7d"].string() == "75")
            #expect(try venues[0]["premiumPercentile7d"].optionalString() == nil)
            // A venue without recorded premiums has the field, null.
            #expect(run.output.contains(#""premiumPercent":"-0.02","premiumPercentile7d":null,"receivedAt":"#))
            let table = await runCLI(
                ["compare", "BTC", "--format", "table"], environment: ["AGG_HOME": home], http: try network(),
                registry: registryWithFX())
            let bithumb = table.output.split(separator: "\n").first { $0.hasPrefix("bithumb") }
            // 7D PCTL, then AGE (`<days>d stale`: the recording is old).
            #expect(bithumb?.split(separator: " ").dropLast(2).last == "75")
        }
    }
}
