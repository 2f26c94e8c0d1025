import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// The FX sources' and Coinbase's base URLs, answered from their sample recordings.
private let sourceBases = [
    "exchangerate": "https://open.er-api.com", "frankfurter": "https://api.frankfurter.dev",
    "dunamu": "https://quotation-api-cdn.dunamu.com", "coinbase": "https://api.exchange.coinbase.com",
]

/// The test venues with every FX source: the three FX venues, Coinbase to compare with.
private func fxRegistry() -> AdapterRegistry {
    fixedRegistry(["coinbase", "exchangerate", "frankfurter", "dunamu"])
}

/// A network answering from the recordings, where `override` may answer a request first.
private func network(override: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse? = { _ in nil }) throws
    -> ScriptedHTTPClient
{
    let responder = try FixtureResponder(venues: sourceBases)
    return ScriptedHTTPClient { request in
        if let answer = try override(request) { return answer }
        return try responder.respond(to: request)
    }
}

/// An answer with `body` for requests to `host`, when `request` goes there.
private func answer(_ request: HTTPRequest, host: String, status: Int = 200, _ body: String) -> HTTPResponse? {
    request.url.hasPrefix(host)
        ? HTTPResponse(status: status, headers: [], body: Array(body.utf8), url: request.url) : nil
}

@Suite("agg rates from Frankfurter and Dunamu")
struct FXSourceCommandTests {
    @Test("--source frankfurter: the ECB rates rebased on USD, as of the publication, credited")
    func frankfurterTable() async throws {
        let run = await runCLI(
            [
                "rates", "USD", "--source", "frankfurter", "--offline", "--to", "KRW,JPY,EUR", "-f", "table",
            ], registry: fxRegistry())
        #expect(run.status == 0)
        #expect(
            run.output == """
                CODE      RATE     CHANGE
                EUR    0.91567          -
                JPY     146.53          -
                KRW   1,373.59          -

                USD base, as of 2024-08-07 14:00:00 UTC; next update 2024-08-08 14:00:00 UTC.
                No earlier snapshot to compare with yet; arrows appear once the next update is stored.
                Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (https://frankfurter.dev)

                """)
        #expect(run.errorLines == ["agg: offline: frankfurter answers from sample data dated 2024-08-08T08:12:15Z"])
    }

    @Test("--source frankfurter in JSON: exact decimals, the base added as 1")
    func frankfurterJSON() async throws {
        let run = await runCLI(
            [
                "rates", "KRW", "--source", "frankfurter", "--offline", "--to", "USD,KRW", "-f", "json",
            ], registry: fxRegistry())
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"source":"frankfurter",\
                "attribution":"Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (https://frankfurter.dev)","base":"KRW","asOf":"2024-08-07T14:00:00Z","nextUpdate":"2024-08-08T14:00:00Z",\
                "previousAsOf":null,"rates":[{"code":"KRW","rate":"1","previous":null,"change":null,"trend":null},\
                {"code":"USD","rate":"0.00073","previous":null,"change":null,"trend":null}]}

                """)
    }

    @Test("--source dunamu: Hana Bank's KRW rate of one yen, from a price per 100")
    func dunamu() async throws {
        let run = await runCLI(
            ["rates", "JPY", "--source", "dunamu", "--offline", "-f", "csv"], registry: fxRegistry())
        #expect(run.status == 0)
        #expect(run.output == "base,code,rate,previous,change,trend\nJPY,JPY,1,,,\nJPY,KRW,9.3685,,,\n")
    }

    @Test("dunamu from KRW is a usage error naming the bases it has, with no request")
    func dunamuFromKRW() async throws {
        let http = try network()
        let run = await runCLI(["rates", "KRW", "--source", "dunamu"], http: http, registry: fxRegistry())
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: dunamu gives rates to KRW from USD, JPY, EUR, CNY, GBP, CHF, CAD, AUD, HKD, SGD only, not from KRW;"
                    + " use another FX source for other bases"
            ])
        #expect(http.requests.isEmpty)
    }

    @Test("an unknown base on Frankfurter is one clear line, exit 1")
    func frankfurterUnknownBase() async throws {
        let run = await runCLI(["rates", "XXX", "--source", "frankfurter", "--offline"], registry: fxRegistry())
        #expect(run.status == 1)
        #expect(
            run.errorLines.last
                == "agg: frankfurter: error 404: not found: Frankfurter has no ECB reference rates from XXX")
    }

    @Test("a refused ECB rate is named on stderr and left out; the table is shown, not stored; exit 1")
    func refusedRate() async throws {
        let body = #"{"amount":1.0,"base":"USD","date":"2024-08-07","rates":{"JPY":146.53,"KRW":0}}"#
        let http = try network { answer($0, host: "https://api.frankfurter.dev", body) }
        let run = await runCLI(["rates", "--source", "frankfurter", "-f", "csv"], http: http, registry: fxRegistry())
        #expect(run.status == 1)
        #expect(run.output == "base,code,rate,previous,change,trend\nUSD,JPY,146.53,,,\nUSD,USD,1,,,\n")
        #expect(
            run.errorLines == [
                "agg: frankfurter: KRW rate 0 refused: an exchange rate must be above zero",
                "agg: frankfurter: the USD table of 2024-08-07 14:00:00 UTC was not stored: it has refused rates",
            ])
    }

    @Test("the ECB table is answered from the database until the next publication, then asked again")
    func frankfurterFromStore() async throws {
        let environment = ["AGG_HOME": try temporaryDirectory().path]
        let http = try network()
        let arguments = ["rates", "--source", "frankfurter", "--to", "KRW", "-f", "csv"]
        // 2024-08-08 at 10:00 and 13:59:59 UTC: before the 14:00 UTC publication, one request.
        for now in [
            Timestamp(millisecondsSince1970: 1_723_111_200_000), Timestamp(millisecondsSince1970: 1_723_125_599_000),
        ] {
            let run = await runCLI(arguments, environment: environment, http: http, registry: fxRegistry(), now: now)
            #expect(run.status == 0)
            #expect(run.output == "base,code,rate,previous,change,trend\nUSD,KRW,1373.59,,,\n")
        }
        #expect(http.requests.count == 1)
        // At 14:00 UTC the next table is due: asked again.
        _ = await runCLI(
            arguments, environment: environment, http: http, registry: fxRegistry(),
            now: Timestamp(millisecondsSince1970: 1_723_125_600_000))
        #expect(http.requests.count == 2)
    }

    @Test("each source's snapshots are its own: no arrows across sources, and no pruning of another's")
    func snapshotsPerSource() async throws {
        let home = try temporaryDirectory().path
        let http = try network()
        let environment = ["AGG_HOME": home]
        // The ECB's table of 2024-08-07, then ExchangeRate-API's of 2024-08-21: the second must
        // not be compared with the first.
        let ecb = await runCLI(
            ["rates", "--source", "frankfurter", "--to", "KRW", "-f", "json"], environment: environment, http: http,
            registry: fxRegistry())
        #expect(ecb.status == 0)
        let daily = await runCLI(
            ["rates", "--to", "KRW", "-f", "json"], environment: environment, http: http, registry: fxRegistry())
        #expect(daily.status == 0)
        #expect(try daily.json()["previousAsOf"].value == .null)
        #expect(try daily.json()["rates"][0]["trend"].value == .null)
        let store = try Store.open(environment: environment)
        #expect(try store.snapshotCount(base: "USD", source: "frankfurter") == 1)
        #expect(try store.snapshotCount(base: "USD", source: "exchangerate") == 1)
    }
}

@Suite("agg compare with several FX sources")
struct CompareFXSourcesTests {
    @Test("every FX source is asked at once; the default source's rate is used when all answer")
    func defaultFirst() async throws {
        let http = try network()
        let run = await runCLI(["compare", "BTC", "-e", "coinbase", "-f", "json"], http: http, registry: fxRegistry())
        #expect(run.status == 0)
        #expect(try run.json()["fx"][0]["source"].string() == "exchangerate")
        #expect(try run.json()["fx"][0]["rate"].string() == "1331.529034")
        #expect(
            Set(http.requests.compactMap { URL(string: $0.url)?.host }) == [
                "api.exchange.coinbase.com", "open.er-api.com", "api.frankfurter.dev", "quotation-api-cdn.dunamu.com",
            ])
    }

    @Test("when the default source fails, the next one answers for it")
    func fallback() async throws {
        let http = try network { answer($0, host: "https://open.er-api.com", status: 404, "<html>gone</html>") }
        let run = await runCLI(["compare", "BTC", "-e", "coinbase", "-f", "json"], http: http, registry: fxRegistry())
        #expect(run.status == 0)
        #expect(try run.json()["fx"][0]["source"].string() == "dunamu")
        #expect(try run.json()["fx"][0]["rate"].string() == "1372.5")
        #expect(try run.json()["fx"][0]["asOf"].string() == "2024-08-08T08:12:11Z")
    }

    @Test("a source's unusable KRW rate is named in the conversion failure")
    func unusable() async throws {
        let registry = fixedRegistry(["coinbase", "frankfurter"])
        let body = #"{"amount":1.0,"base":"USD","date":"2024-08-07","rates":{"KRW":-1373.59}}"#
        let http = try network { answer($0, host: "https://api.frankfurter.dev", body) }
        let run = await runCLI(["compare", "BTC", "-e", "coinbase", "-f", "json"], http: http, registry: registry)
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: coinbase BTC/USD: cannot convert to KRW: no USD→KRW rate"
                    + " (frankfurter: KRW rate -1373.59 refused: an exchange rate must be above zero)"
            ])
    }
}
