import AggCLI
import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@Suite("agg candles, trades and book on Upbit")
struct UpbitMarketDataCommandTests {
    @Test("candles -i 24h asks for day bars")
    func days() async throws {
        let client = try Fixtures.recordingClient("upbit", baseURL: "https://api.upbit.com")
        let run = await runCLI(["candles", "BTC", "-e", "upbit", "-i", "24h", "-n", "2", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(client.requests.map(\.url) == ["https://api.upbit.com/v1/candles/days?market=KRW-BTC&count=2"])
        #expect(
            run.output == """
                {"exchange":"upbit","symbol":"BTC/KRW","interval":"24h","candles":[\
                {"time":"2024-08-07T00:00:00.000Z","open":"79007000","high":"80317000","low":"78832000",\
                "close":"79580000","volume":"1873.28309614"},\
                {"time":"2024-08-08T00:00:00.000Z","open":"79580000","high":"81480000","low":"79120000",\
                "close":"80651000","volume":"2134.56812304"}]}

                """)
    }

    @Test(
        "intervals and counts Upbit does not offer are usage errors before any request",
        arguments: [
            (["-i", "6h"], "upbit does not offer 6h candles; its intervals: 1m, 3m, 5m, 10m, 30m, 1h, 24h"),
            (["-i", "12h"], "upbit does not offer 12h candles; its intervals: 1m, 3m, 5m, 10m, 30m, 1h, 24h"),
            (["-n", "201"], "invalid --limit '201': expected a whole number from 1 to 200 for upbit"),
        ])
    func candleUsageErrors(extra: [String], message: String) async throws {
        let client = ScriptedHTTPClient(body: "[]")
        let run = await runCLI(["candles", "BTC", "-e", "upbit"] + extra, http: client)
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: " + message])
        #expect(client.requests.isEmpty)
    }

    @Test("trades: BID is a buy, ASK a sell, cost is price × amount exactly")
    func trades() async throws {
        let run = await runCLI(["trades", "BTC", "-e", "upbit", "--offline", "-f", "json", "-n", "2"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"exchange":"upbit","symbol":"BTC/KRW","trades":[\
                {"time":"2024-08-08T08:12:14.612Z","side":"buy","price":"80651000","amount":"0.00124",\
                "cost":"100007.24"},\
                {"time":"2024-08-08T08:12:14.581Z","side":"sell","price":"80650000","amount":"0.34638236",\
                "cost":"27935737.334"}]}

                """)
    }

    @Test("trades accepts up to Upbit's 500", arguments: [("500", 0), ("501", 64)])
    func tradesLimit(text: String, status: Int32) async throws {
        let run = await runCLI(["trades", "BTC", "-e", "upbit", "-n", text, "--offline", "-f", "json"])
        #expect(run.status == status)
        if status == 0 { #expect(try run.json()["trades"].elements().count == 50) }
    }

    @Test("book: the first unit's bid and ask are the best of each side")
    func book() async throws {
        let run = await runCLI(["book", "BTC", "-e", "upbit", "--offline", "-f", "json", "-d", "2"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"exchange":"upbit","symbol":"BTC/KRW","timestamp":"2024-08-08T08:12:16.112Z",\
                "bids":[{"price":"80650000","amount":"0.0412"},{"price":"80649000","amount":"1.40796254"}],\
                "asks":[{"price":"80651000","amount":"0.0153"},{"price":"80652000","amount":"0.40076801"}]}

                """)
    }

    @Test("book depth is at most Upbit's 30 levels", arguments: [("16", 0), ("30", 0), ("31", 64)])
    func bookDepth(text: String, status: Int32) async throws {
        let run = await runCLI(["book", "BTC", "-e", "upbit", "-d", text, "--offline", "-f", "json"])
        #expect(run.status == status)
        if status == 0 {
            let json = try run.json()
            #expect(try json["bids"].elements().count == Int(text))
            #expect(try json["asks"].elements().count == Int(text))
        } else {
            #expect(run.errorLines.last == "agg: invalid --depth '31': expected a whole number from 1 to 30 for upbit")
        }
    }

    @Test("book -d 30: thirty asks above the spread and thirty bids below it")
    func bookTable() async throws {
        let run = await runCLI(["book", "BTC", "-e", "upbit", "-d", "30", "--offline", "-f", "table"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        // Caption, header, 30 asks, the spread, 30 bids.
        #expect(lines.count == 63)
        #expect(lines[0] == "BTC/KRW on upbit · 30 asks, 30 bids · 2024-08-08 08:12:16 UTC")
        // The 30th level of each side, with the running total of all 30 (the answer's
        // total_ask_size and total_bid_size).
        #expect(lines[2] == "ask     80,701,000  1.23576818  21.80984883   99,727,728")
        #expect(lines[32].hasPrefix("spread"))
        #expect(lines[62] == "bid     80,601,000  0.92718231  18.42221864   74,731,821")
    }

    @Test("an unknown market is exit 1 with Upbit's code and message", arguments: ["candles", "trades", "book"])
    func unknownMarket(command: String) async throws {
        let run = await runCLI([command, "NOPE", "-e", "upbit", "--offline", "-f", "json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errorLines.last == "agg: upbit: NOPE/KRW is not listed (error 404: Code not found)")
    }

    @Test("without --exchange the usage error names every venue with candles, Upbit among them")
    func venuesWithCandles() async throws {
        let run = await runCLI(["candles", "BTC"])
        let venues = testRegistry().descriptors(supporting: .candles).map(\.id)
        #expect(run.status == 64)
        #expect(venues.contains("upbit") && venues.contains("bithumb"))
        #expect(
            run.errorLines == [
                "agg: name the venue with --exchange ID; venues with candles: " + venues.joined(separator: ", ")
            ])
    }

    @Test("exchanges lists Upbit's new capabilities")
    func exchanges() async throws {
        let run = await runCLI(["exchanges", "--format", "json"])
        let upbit = try #require(try run.json()["exchanges"].elements().first { try $0["id"].string() == "upbit" })
        #expect(
            try upbit["capabilities"].elements().map { try $0.string() }
                == [
                    "ticker", "allTickers", "markets", "candles", "trades", "orderBook", "transferStatus", "stream",
                    "events",
                ])
    }
}
