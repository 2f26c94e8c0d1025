import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

/// The real `agg` binary, over real libcurl, against the loopback server serving Fixtures/: the
/// new FX sources and Binance's and Coinbase's market data.
@Suite("agg FX sources and global market data end to end")
struct EndToEndFXAndGlobalMarketDataTests {
    @Test("rates --source frankfurter: exact ECB rates, one request")
    func frankfurter() async throws {
        let server = try FixtureServer(venues: ["frankfurter"])
        let run = try await AggBinary.run(
            ["rates", "USD", "--source", "frankfurter", "--to", "KRW,EUR", "-f", "json"],
            environment: try server.privateEnvironment())
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
                {"source":"frankfurter",\
                "attribution":"Euro foreign exchange reference rates of the European Central Bank, via Frankfurter (https://frankfurter.dev)","base":"USD","asOf":"2024-08-07T14:00:00Z","nextUpdate":"2024-08-08T14:00:00Z",\
                "previousAsOf":null,"rates":[{"code":"EUR","rate":"0.91567","previous":null,"change":null,"trend":null},\
                {"code":"KRW","rate":"1373.59","previous":null,"change":null,"trend":null}]}

                """)
        #expect(server.requests.map(\.target) == ["/frankfurter/v1/latest?base=USD"])
    }

    @Test("a retired Frankfurter host that redirects is followed by the transport")
    func redirect() async throws {
        let server = try FixtureServer(venues: ["frankfurter"]) { venue, request in
            guard venue == "old-frankfurter" else { return nil }
            return .redirect(to: "/frankfurter" + request.target, status: 301)
        }
        let run = try await AggBinary.run(
            ["rates", "--source", "frankfurter", "--to", "KRW", "-f", "csv"],
            environment: try server.privateEnvironment(["AGG_FRANKFURTER_URL": server.baseURL(for: "old-frankfurter")]))
        #expect(run.status == 0)
        #expect(run.output == "base,code,rate,previous,change,trend\nUSD,KRW,1373.59,,,\n")
        #expect(
            server.requests.map(\.target) == ["/old-frankfurter/v1/latest?base=USD", "/frankfurter/v1/latest?base=USD"])
    }

    @Test("rates --source dunamu: Hana Bank's rate with its credit; a second run compares with the first")
    func dunamu() async throws {
        let server = try FixtureServer(venues: ["dunamu"])
        let environment = try server.privateEnvironment()
        let run = try await AggBinary.run(["rates", "--source", "dunamu", "-f", "table"], environment: environment)
        #expect(run.status == 0)
        #expect(
            run.output == """
                CODE     RATE     CHANGE
                KRW   1,372.5          -
                USD         1          -

                USD base, as of 2024-08-08 08:12:11 UTC.
                No earlier snapshot to compare with yet; arrows appear once the next update is stored.
                Hana Bank exchange rates via Dunamu (unofficial; https://quotation-api-cdn.dunamu.com)

                """)
        // Dunamu gives no next update: every run asks again.
        _ = try await AggBinary.run(["rates", "--source", "dunamu", "-f", "json"], environment: environment)
        #expect(server.requests.count == 2)
    }

    @Test("candles -e binance and trades -e coinbase, exact, with the venue's own paths")
    func marketData() async throws {
        let server = try FixtureServer(venues: ["binance", "coinbase"])
        let environment = try server.privateEnvironment()
        let candles = try await AggBinary.run(
            ["candles", "BTC", "-e", "binance", "-n", "1", "-i", "24h", "-f", "csv"], environment: environment)
        #expect(candles.status == 0)
        #expect(
            candles.output
                == "time,open,high,low,close,volume\n2024-08-08T00:00:00.000Z,58518.59,58569.64,57990.7,58412.07,10214.99079\n"
        )
        let trades = try await AggBinary.run(
            ["trades", "BTC", "-e", "coinbase", "-n", "1", "-f", "csv"], environment: environment)
        #expect(trades.status == 0)
        #expect(
            trades.output
                == "time,side,price,amount,cost\n2024-08-08T08:12:14.874Z,sell,58431.29,0.00134502,78.5912536758\n")
        #expect(
            server.requests.map(\.target) == [
                "/binance/api/v3/klines?symbol=BTCUSDT&interval=1d&limit=1",
                "/coinbase/products/BTC-USD/trades?limit=1",
            ])
    }

    @Test("quote --all -e binance: one request of weight 80 for every USDT ticker")
    func allTickers() async throws {
        let server = try FixtureServer(venues: ["binance"])
        let run = try await AggBinary.run(
            ["quote", "--all", "-e", "binance", "-f", "json"], environment: try server.privateEnvironment())
        #expect(run.status == 0)
        let quotes = try JSONCursor(JSONParser.parse(run.output))["quotes"].elements()
        #expect(quotes.count == 707)
        #expect(server.requests.map(\.target) == ["/binance/api/v3/ticker/24hr"])
    }
}
