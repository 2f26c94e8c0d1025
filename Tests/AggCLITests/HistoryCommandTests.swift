import AggCore
import AggJSON
import AggStore
import Foundation
import Testing

@testable import AggCLI

/// `agg history` on sample data written straight into the store: the series, exact statistics
/// (mean, percentile, z-score), and the exact shapes of CSV and JSON.
@Suite("agg history")
struct HistoryCommandTests {
    static let start = Timestamp(secondsSince1970: 1_800_000_000)
    static let now = Timestamp(secondsSince1970: 1_800_000_600)

    static func time(_ minute: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: start.millisecondsSince1970 + minute * 60_000)
    }

    /// Sample data: bithumb BTC/KRW 100, 102, 101, 105, 103 and upbit BTC/KRW 50 five times, a
    /// minute apart; premiums of upbit on both bases; an ETH price that must not show. Ages:
    /// bithumb's quotes carry the venue's time 1.234 s before the tick and were received 0.2 s
    /// before it; upbit's last one has only a receive time, 45 s before its tick; upbit's others
    /// carry neither (rows recorded before agg kept the times).
    static func fill(_ home: String) async throws {
        let store = try Store.open(path: home + "/agg.sqlite")
        let bithumb: [Decimal] = [100, 102, 101, 105, 103]
        let premiums = ["2.51", "2.49", "3.10", "2.75", "2.80"]
        for minute in 0..<5 {
            let time = time(Int64(minute))
            try await store.record(
                RecordedTick(
                    time: time,
                    prices: [
                        PricePoint(
                            time: time, exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"),
                            last: bithumb[minute], venueTime: Self.before(time, 1_234),
                            receivedAt: Self.before(time, 200)),
                        PricePoint(
                            time: time, exchange: "upbit", market: Market(base: "BTC", quote: "KRW"), last: 50,
                            receivedAt: minute == 4 ? Self.before(time, 45_000) : nil),
                        PricePoint(time: time, exchange: "upbit", market: Market(base: "ETH", quote: "KRW"), last: 7),
                    ],
                    premiums: [
                        PremiumPoint(
                            time: time, exchange: "upbit", symbol: "BTC", basis: "usd", fxSource: "exchangerate",
                            percent: Decimal(string: premiums[minute]) ?? 0)
                    ]))
        }
    }

    static func before(_ time: Timestamp, _ milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: time.millisecondsSince1970 - milliseconds)
    }

    func history(_ arguments: [String]) async throws -> CLIRun {
        try await withTemporaryHome { home in
            try await Self.fill(home)
            return await runCLI(["history"] + arguments, environment: ["AGG_HOME": home], now: Self.now)
        }
    }

    @Test("statistics are exact: mean, the latest value's percentile and z-score, per venue")
    func statistics() throws {
        let statistics = try #require(SeriesStatistics([100, 102, 101, 105, 103]))
        #expect(statistics.count == 5)
        #expect(statistics.minimum == 100)
        #expect(statistics.maximum == 105)
        #expect(statistics.mean == Decimal(string: "102.2"))
        #expect(statistics.latest == 103)
        // 100, 101, 102 and 103 are at or below 103: 4 of 5.
        #expect(statistics.percentile == 80)
        // σ = √(14.8 / 5) = 1.7205; (103 − 102.2) / σ = 0.465.
        #expect(statistics.zScore == Decimal(string: "0.46"))
        let flat = try #require(SeriesStatistics([50, 50, 50]))
        #expect(flat.percentile == 100)
        #expect(flat.zScore == nil)
        // A third: 100 × 1 / 3 = 33.3; the mean keeps two more decimals than the values.
        let thirds = try #require(SeriesStatistics([Decimal(string: "0.1")!, Decimal(string: "0.2")!, 0]))
        #expect(thirds.percentile == Decimal(string: "33.3"))
        #expect(thirds.mean == Decimal(string: "0.1"))
        let lowest = try #require(SeriesStatistics([3, 2, 1]))
        #expect(lowest.percentile == Decimal(string: "33.3"))
        #expect(lowest.zScore == Decimal(string: "-1.22"))
        #expect(SeriesStatistics([]) == nil)
    }

    @Test("JSON: every series with its statistics and points, exact decimals, ISO-8601 UTC times, ages")
    func json() async throws {
        let run = try await history(["BTC", "--exchange", "bithumb", "--since", "1h", "--format", "json"])
        #expect(run.status == 0)
        #expect(run.error == "")
        let points = [100, 102, 101, 105, 103].enumerated().map { minute, value in
            let time = Self.time(Int64(minute))
            return "{\"time\":\"\(time)\",\"value\":\"\(value)\",\"receivedAt\":\"\(Self.before(time, 200))\","
                + "\"ageSeconds\":\"1.234\"}"
        }
        #expect(
            run.output == """
                {"symbol":"BTC","kind":"price","since":"2027-01-15T07:10:00.000Z","until":"2027-01-15T08:10:00.001Z",\
                "series":[{"exchange":"bithumb","market":"BTC/KRW","statistics":{"count":5,"min":"100","max":"105",\
                "mean":"102.2","latest":"103","latestTime":"2027-01-15T08:04:00.000Z","percentile":"80","zScore":"0.46"},\
                "points":[\(points.joined(separator: ","))]}]}

                """)
    }

    @Test("CSV: a time column in ISO-8601 UTC, one row per point, oldest first then by venue, with ages")
    func csv() async throws {
        let run = try await history(["BTC", "--since", "2027-01-15T08:03Z", "--format", "csv"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                time,exchange,market,last,receivedAt,ageSeconds
                2027-01-15T08:03:00.000Z,bithumb,BTC/KRW,105,2027-01-15T08:02:59.800Z,1.234
                2027-01-15T08:03:00.000Z,upbit,BTC/KRW,50,,
                2027-01-15T08:04:00.000Z,bithumb,BTC/KRW,103,2027-01-15T08:03:59.800Z,1.234
                2027-01-15T08:04:00.000Z,upbit,BTC/KRW,50,2027-01-15T08:03:15.000Z,45.000

                """)
    }

    @Test("JSON of a price recorded before agg kept its times: receivedAt and ageSeconds are null")
    func jsonOldRows() async throws {
        let run = try await history(["BTC", "--exchange", "upbit", "--since", "2027-01-15T08:03Z", "--format", "json"])
        #expect(run.status == 0)
        let points = try run.json()["series"][0]["points"].elements()
        #expect(points.count == 2)
        #expect(points[0]["receivedAt"].value == .null)
        #expect(points[0]["ageSeconds"].value == .null)
        #expect(try points[1]["receivedAt"].string() == "2027-01-15T08:03:15.000Z")
        #expect(try points[1]["ageSeconds"].string() == "45.000")
    }

    @Test("--premium: the premiums per venue and basis, with their statistics")
    func premium() async throws {
        let run = try await history(["BTC", "--premium", "--format", "csv"])
        #expect(
            run.output == """
                time,exchange,basis,premium
                2027-01-15T08:00:00.000Z,upbit,usd,2.51
                2027-01-15T08:01:00.000Z,upbit,usd,2.49
                2027-01-15T08:02:00.000Z,upbit,usd,3.1
                2027-01-15T08:03:00.000Z,upbit,usd,2.75
                2027-01-15T08:04:00.000Z,upbit,usd,2.8

                """)
        let table = try await history(["BTC", "--premium", "--format", "table"])
        let row = try #require(table.output.split(separator: "\n").first { $0.hasPrefix("upbit") })
        #expect(
            row.split(separator: " ", omittingEmptySubsequences: true) == [
                "upbit", "usd", "5", "+2.49%", "+3.10%", "+2.73%", "+2.80%", "80", "0.31",
            ])
    }

    @Test("a table of statistics then the latest points; --chart draws each series")
    func table() async throws {
        let run = try await history(["BTC", "--format", "table"])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.split(separator: " ") == ["bithumb", "BTC/KRW", "5", "100", "105", "102.2", "103", "80", "0.46"]
            })
        #expect(
            lines.contains {
                $0.split(separator: " ") == ["upbit", "BTC/KRW", "5", "50", "50", "50", "50", "100", "-"]
            })
        #expect(lines.contains { $0.split(separator: " ") == ["TIME", "(UTC)", "VENUE", "MARKET", "LAST", "AGE"] })
        #expect(lines.last?.split(separator: " ") == ["2027-01-15", "08:04:00", "upbit", "BTC/KRW", "50", "45s"])
        #expect(
            lines.contains { $0.split(separator: " ") == ["2027-01-15", "08:03:00", "upbit", "BTC/KRW", "50", "-"] })
        #expect(
            lines.contains {
                $0.split(separator: " ") == ["2027-01-15", "08:03:00", "bithumb", "BTC/KRW", "105", "1.2s"]
            })
        let chart = try await history(["BTC", "--chart", "--format", "table", "--exchange", "bithumb"])
        #expect(chart.status == 0)
        #expect(chart.output.contains("105 ┤"))
        #expect(chart.output.contains("100 ┤"))
        // In a pipe the implicit format is JSON: --chart asks for the chart, and gets it.
        let piped = try await history(["BTC", "--chart", "--exchange", "bithumb"])
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.output == chart.output)
        let explicit = try await history(["BTC", "--chart", "-f", "json"])
        #expect(explicit.status == 64)
        #expect(
            explicit.errorLines == ["agg: --chart draws on the terminal; it cannot be combined with --format json"])
    }

    @Test("nothing recorded: the table says so on stderr and exits 0; JSON has no series")
    func empty() async throws {
        let run = try await history(["XRP", "--format", "table"])
        #expect(run.status == 0)
        #expect(run.output == "")
        #expect(run.error == "agg: no recorded prices of XRP since 2027-01-14 08:10:00 UTC (agg record stores them)\n")
        let json = try await history(["XRP", "--format", "json"])
        #expect(try json.json()["series"].elements().isEmpty)
    }

    @Test(
        "bad input is a usage error naming the problem (exit 64)",
        arguments: [
            (["BTC", "--since", "yesterday"], "invalid --since 'yesterday'"),
            (["BTC", "--since", "2027-02-30"], "invalid --since '2027-02-30'"),
            (["BTC", "--chart", "--format", "json"], "--chart draws on the terminal"),
            (["BTC", "--exchange", "nope"], "unknown exchange 'nope'"),
            (["BTC/KRW!"], "invalid symbol"),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let run = try await history(arguments)
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("agg: " + message))
    }

    @Test("--store sqlite:PATH reads another database than agg's own")
    func storeOption() async throws {
        try await withTemporaryHome { other in
            try await Self.fill(other)
            let run = await runCLI(
                ["history", "BTC", "--exchange", "upbit", "--format", "csv", "--store", "sqlite:\(other)/agg.sqlite"],
                now: Self.now)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.split(separator: "\n").count == 6)
            let bad = await runCLI(["history", "BTC", "--store", "mysql://host/db"], now: Self.now)
            #expect(bad.status == 64)
            #expect(bad.error.hasPrefix("agg: --store does not know the scheme 'mysql://'"))
        }
    }
}
