import AggCLI
import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@Suite("agg candles, trades, book and quote --all on Binance and Coinbase")
struct GlobalMarketDataCommandTests {
    @Test(
        "each venue's own intervals and limits are checked before any request",
        arguments: [
            (
                ["-e", "binance", "-i", "10m"],
                "binance does not offer 10m candles; its intervals: 1m, 3m, 5m, 30m, 1h, 6h, 12h, 24h"
            ),
            (
                ["-e", "binance", "-n", "1001"],
                "invalid --limit '1001': expected a whole number from 1 to 1000 for binance"
            ),
            (
                ["-e", "coinbase", "-i", "30m"],
                "coinbase does not offer 30m candles; its intervals: 1m, 5m, 1h, 6h, 24h"
            ),
            (
                ["-e", "coinbase", "-n", "301"],
                "invalid --limit '301': expected a whole number from 1 to 300 for coinbase"
            ),
        ])
    func candleUsageErrors(extra: [String], message: String) async throws {
        let client = ScriptedHTTPClient(body: "[]")
        let run = await runCLI(["candles", "BTC"] + extra, http: client)
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: " + message])
        #expect(client.requests.isEmpty)
    }

    @Test("trades: Binance's isBuyerMaker and Coinbase's maker side both become the taker's side")
    func trades() async throws {
        let binance = await runCLI(["trades", "BTC", "-e", "binance", "--offline", "-n", "2", "-f", "csv"])
        #expect(binance.status == 0)
        #expect(
            binance.output == """
                time,side,price,amount,cost
                2024-08-08T08:12:14.987Z,buy,58412.07,0.00342,199.7692794
                2024-08-08T08:12:14.219Z,buy,58411.9,2.81278,164299.824082

                """)
        let coinbase = await runCLI(["trades", "BTC", "-e", "coinbase", "--offline", "-n", "2", "-f", "csv"])
        #expect(coinbase.status == 0)
        #expect(
            coinbase.output == """
                time,side,price,amount,cost
                2024-08-08T08:12:14.874Z,sell,58431.29,0.00134502,78.5912536758
                2024-08-08T08:12:14.412Z,buy,58431.41,1.40631173,82172.7772834393

                """)
    }

    @Test("book -e binance: the best bid and ask are the ticker's, the spread one tick")
    func binanceBook() async throws {
        let run = await runCLI(["book", "BTC", "-e", "binance", "--offline", "-d", "2", "-f", "table"])
        #expect(run.status == 0)
        #expect(
            run.output.split(separator: "\n").map(String.init) == [
                "BTC/USDT on binance · 2 asks, 2 bids",
                "SIDE        PRICE   AMOUNT    TOTAL  VALUE (USDT)",
                "ask     58,412.46  0.79772  1.20284     46,596.79",
                "ask     58,412.07  0.40512  0.40512     23,663.90",
                "spread       0.01  0.0000%",
                "bid     58,412.06  1.87341  1.87341    109,429.74",
                "bid     58,411.66   1.8903  3.76371    110,415.56",
            ])
    }

    @Test("book -e coinbase: the level-2 book with its time, in JSON")
    func coinbaseBook() async throws {
        let run = await runCLI(["book", "BTC", "-e", "coinbase", "--offline", "-d", "1", "-f", "json"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"exchange":"coinbase","symbol":"BTC/USD","timestamp":"2024-08-08T08:12:15.021Z",\
                "bids":[{"price":"58431.29","amount":"0.64317498"}],"asks":[{"price":"58431.3","amount":"0.01523101"}]}

                """)
    }

    @Test("quote --all -e binance: every USDT ticker from one all-tickers answer, BTC's exact")
    func allTickers() async throws {
        let run = await runCLI(
            ["quote", "--all", "-e", "binance", "--offline", "-f", "csv"], now: QuoteAgeOutputTests.now)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 708)
        let expected =
            "binance,BTC/USDT,BTC,USDT,58412.07,58790.53,59133.5,56411.23,58790.52,-378.46,-0.644,rolling24h,"
            + "31245.67812,1802716532.85710318,2024-08-08T08:12:14.987Z,false,2024-08-08T08:12:27.527Z,12.540"
        #expect(lines.first { $0.hasPrefix("binance,BTC/USDT,") }.map(String.init) == expected)
    }

    @Test("an unknown coin is not listed on Binance's and Coinbase's market data endpoints")
    func notListed() async throws {
        let binance = await runCLI(["trades", "NOPE", "-e", "binance", "--offline"])
        #expect(binance.status == 1)
        #expect(binance.errorLines.last == "agg: binance: NOPE/USDT is not listed (error -1121: Invalid symbol.)")
        let coinbase = await runCLI(["book", "NOPE", "-e", "coinbase", "--offline"])
        #expect(coinbase.status == 1)
        #expect(coinbase.errorLines.last == "agg: coinbase: NOPE/USD is not listed (error 404: NotFound)")
    }
}
