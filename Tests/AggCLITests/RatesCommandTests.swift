import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Testing

@testable import AggCLI

/// An HTTP client that answers every request with `Fixtures/exchangerate/<file>`.
private func serving(_ file: String, status: Int = 200) throws -> ScriptedHTTPClient {
    let body = try Fixtures.bytes("exchangerate/" + file)
    return ScriptedHTTPClient { request in HTTPResponse(status: status, headers: [], body: body, url: request.url) }
}

/// The recorded USD answers, one a day.
private let day1 = "USD_2024-08-19.json"
private let day2 = "USD_2024-08-20.json"
private let day3 = "USD_2024-08-21.json"

/// `agg rates` with `arguments`, the day's answer served, in the database at `home`, at `now`
/// (by default the real clock, which is long past every recorded next update).
private func rates(_ arguments: [String], serving file: String, home: String, now: Timestamp? = nil)
    async throws -> CLIRun
{
    await runCLI(["rates"] + arguments, environment: ["AGG_HOME": home], http: try serving(file), now: now)
}

/// `agg rates` at `now` with a network that fails every request: only the store can answer.
private func ratesFromStore(_ arguments: [String], home: String, now: Timestamp) async -> (CLIRun, requests: Int) {
    let offline = ScriptedHTTPClient { request in
        throw TransportError.connection(url: request.url, detail: "no network in this test")
    }
    let run = await runCLI(["rates"] + arguments, environment: ["AGG_HOME": home], http: offline, now: now)
    return (run, offline.requests.count)
}

/// 2024-08-`day` at `hour`:00 UTC.
private func august(_ day: Int64, _ hour: Int64) -> Timestamp {
    Timestamp(secondsSince1970: 1_722_470_400 + (day - 1) * 86_400 + hour * 3600)
}

/// One currency of a JSON answer, as text.
private struct Row: Equatable, CustomStringConvertible {
    var rate: String
    var previous: String?
    var change: String?
    var trend: String?

    var description: String { "\(rate) \(previous ?? "null") \(change ?? "null") \(trend ?? "null")" }
}

private func rows(_ run: CLIRun) throws -> [String: Row] {
    var rows: [String: Row] = [:]
    for entry in try run.json()["rates"].elements() {
        rows[try entry["code"].string()] = Row(
            rate: try entry["rate"].string(), previous: try entry["previous"].optionalString(),
            change: try entry["change"].optionalString(), trend: try entry["trend"].optionalString())
    }
    return rows
}

private func codes(_ run: CLIRun) throws -> [String] {
    try run.json()["rates"].elements().map { try $0["code"].string() }
}

private func trendCounts(_ run: CLIRun) throws -> [String: Int] {
    try rows(run).values.reduce(into: [:]) { counts, row in counts[row.trend ?? "null", default: 0] += 1 }
}

private func store(_ home: String) throws -> Store {
    try Store.open(path: home + "/agg.sqlite")
}

@Suite("agg rates: day over day")
struct RatesSequenceTests {
    @Test("three days in a row, each run twice: flat, then ▲ ▼ against the day before, two snapshots kept")
    func threeDays() async throws {
        try await withTemporaryHome { home async throws in
            // Each day's first run comes after the provider's update of that day (about 00:06
            // UTC), so it asks; the second comes later the same day, before the next update, so
            // the stored snapshot answers without a request.
            // Day 1: nothing to compare with.
            let first = try await rates(["-f", "json"], serving: day1, home: home, now: august(19, 6))
            #expect(first.status == 0)
            #expect(first.error == "")
            #expect(try first.json()["asOf"].string() == "2024-08-19T00:02:31Z")
            #expect(try first.json()["nextUpdate"].string() == "2024-08-20T00:06:21Z")
            #expect(try first.json()["previousAsOf"].optionalString() == nil)
            let firstRows = try rows(first)
            #expect(firstRows.count == 162)
            #expect(firstRows.values.allSatisfy { $0.trend == nil && $0.previous == nil && $0.change == nil })
            #expect(firstRows["KRW"] == Row(rate: "1350.003043", previous: nil, change: nil, trend: nil))
            #expect(try store(home).snapshotCount(base: "USD") == 1)

            // Day 1 again: answered from the store, and there is still nothing older.
            let (again, againRequests) = await ratesFromStore(["-f", "json"], home: home, now: august(19, 20))
            #expect(againRequests == 0)
            #expect(again.output == first.output)
            // Asked again all the same, the same snapshot is not stored twice.
            let refreshed = try await rates(
                ["-f", "json", "--refresh"], serving: day1, home: home, now: august(19, 21))
            #expect(refreshed.output == first.output)
            #expect(try store(home).snapshotCount(base: "USD") == 1)

            // Day 2 against day 1.
            let second = try await rates(["-f", "json"], serving: day2, home: home, now: august(20, 6))
            #expect(second.status == 0)
            #expect(try second.json()["asOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try second.json()["previousAsOf"].string() == "2024-08-19T00:02:31Z")
            let secondRows = try rows(second)
            let expectedSecond: [String: Row] = [
                "KRW": Row(rate: "1335.841127", previous: "1350.003043", change: "-14.161916", trend: "down"),
                "JPY": Row(rate: "145.351276", previous: "148.042596", change: "-2.69132", trend: "down"),
                "RUB": Row(rate: "91.454471", previous: "89.378323", change: "2.076148", trend: "up"),
                "ARS": Row(rate: "945.5", previous: "944", change: "1.5", trend: "up"),
                "EUR": Row(rate: "0.901844", previous: "0.907539", change: "-0.005695", trend: "flat"),
                "GBP": Row(rate: "0.769741", previous: "0.773358", change: "-0.003617", trend: "flat"),
                "CHF": Row(rate: "0.861234", previous: "0.867267", change: "-0.006033", trend: "flat"),
                "CNY": Row(rate: "7.175629", previous: "7.165629", change: "0.01", trend: "flat"),
                "INR": Row(rate: "83.910127", previous: "83.920127", change: "-0.01", trend: "flat"),
                "KWD": Row(rate: "0.305712", previous: "0.305712", change: "0", trend: "flat"),
                "USD": Row(rate: "1", previous: "1", change: "0", trend: "flat"),
                "LBP": Row(rate: "89500", previous: "89500", change: "0", trend: "flat"),
            ]
            for (code, row) in expectedSecond {
                #expect(secondRows[code] == row, "\(code)")
            }
            #expect(try trendCounts(second) == ["up": 44, "down": 60, "flat": 58])
            #expect(try store(home).snapshotCount(base: "USD") == 2)

            // Day 2 again, later the same day: still compared with day 1, so the arrows stay.
            let (secondAgain, secondRequests) = await ratesFromStore(["-f", "json"], home: home, now: august(20, 20))
            #expect(secondRequests == 0)
            #expect(secondAgain.output == second.output)
            #expect(try store(home).snapshotCount(base: "USD") == 2)

            // Day 3 against day 2; day 1 is dropped.
            let third = try await rates(["-f", "json"], serving: day3, home: home, now: august(21, 6))
            #expect(try third.json()["previousAsOf"].string() == "2024-08-20T00:02:31Z")
            let thirdRows = try rows(third)
            let expectedThird: [String: Row] = [
                "KRW": Row(rate: "1331.529034", previous: "1335.841127", change: "-4.312093", trend: "down"),
                "JPY": Row(rate: "146.282514", previous: "145.351276", change: "0.931238", trend: "up"),
                "RUB": Row(rate: "91.447202", previous: "91.454471", change: "-0.007269", trend: "flat"),
                "ARS": Row(rate: "946", previous: "945.5", change: "0.5", trend: "up"),
                "CNY": Row(rate: "7.130601", previous: "7.175629", change: "-0.045028", trend: "down"),
                "INR": Row(rate: "83.920127", previous: "83.910127", change: "0.01", trend: "flat"),
                "EUR": Row(rate: "0.897903", previous: "0.901844", change: "-0.003941", trend: "flat"),
            ]
            for (code, row) in expectedThird {
                #expect(thirdRows[code] == row, "\(code)")
            }
            #expect(try trendCounts(third) == ["up": 61, "down": 50, "flat": 51])

            let database = try store(home)
            #expect(try database.snapshotCount(base: "USD") == 2)
            #expect(try database.latestSnapshot(base: "USD")?.asOf.iso8601Seconds == "2024-08-21T00:02:31Z")
            let kept = try database.snapshot(base: "USD", olderThan: Timestamp(secondsSince1970: 1_724_198_551))
            #expect(kept?.asOf.iso8601Seconds == "2024-08-20T00:02:31Z")
            #expect(kept?.rates.count == 162)
            #expect(try database.snapshot(base: "USD", olderThan: Timestamp(secondsSince1970: 1_724_112_151)) == nil)
            #expect(try database.integrityCheck() == "ok")
        }
    }

    @Test("--keep 3 keeps all three days; the comparison is still with the day before")
    func keepThree() async throws {
        try await withTemporaryHome { home async throws in
            for file in [day1, day2, day3] {
                #expect(try await rates(["-f", "json", "--keep", "3"], serving: file, home: home).status == 0)
            }
            #expect(try store(home).snapshotCount(base: "USD") == 3)
            let third = try await rates(["-f", "json", "--keep", "3", "--to", "KRW"], serving: day3, home: home)
            #expect(try third.json()["previousAsOf"].string() == "2024-08-20T00:02:31Z")
        }
    }

    @Test("--refresh replaces a stored snapshot of the same base and time with the provider's new answer")
    func refreshReplaces() async throws {
        try await withTemporaryHome { home async throws in
            #expect(try await rates(["-f", "json"], serving: day1, home: home, now: august(19, 6)).status == 0)
            // The provider corrects the day's table without a new update time: same asOf, a new
            // KRW rate, a later next update.
            let original = String(decoding: try Fixtures.bytes("exchangerate/" + day1), as: UTF8.self)
            let corrected = original.replacingOccurrences(of: "\"KRW\":1350.003043", with: "\"KRW\":1351.5")
                .replacingOccurrences(
                    of: "\"time_next_update_unix\":1724112381", with: "\"time_next_update_unix\":1724119581")
            #expect(corrected != original)
            let client = ScriptedHTTPClient(body: corrected)
            let run = await runCLI(
                ["rates", "--refresh", "--to", "KRW", "-f", "json"], environment: ["AGG_HOME": home], http: client,
                now: august(19, 7))
            #expect(run.status == 0)
            #expect(try rows(run)["KRW"]?.rate == "1351.5")
            #expect(try run.json()["nextUpdate"].string() == "2024-08-20T02:06:21Z")
            let stored = try #require(try store(home).latestSnapshot(base: "USD"))
            #expect(try store(home).snapshotCount(base: "USD") == 1)
            #expect(stored.rates["KRW"]?.description == "1351.5")
            #expect(stored.nextUpdate == Timestamp(secondsSince1970: 1_724_119_581))
            // Later that day the stored answer is the corrected one.
            let (later, requests) = await ratesFromStore(
                ["--to", "KRW", "-f", "json"], home: home, now: august(19, 20))
            #expect(requests == 0)
            #expect(later.output == run.output)
        }
    }

    @Test("an answer with a zero or negative rate: those currencies are errors, the rest is shown, nothing is stored")
    func implausibleRates() async throws {
        try await withTemporaryHome { home async throws in
            #expect(try await rates(["-f", "json"], serving: day1, home: home, now: august(19, 6)).status == 0)
            let original = String(decoding: try Fixtures.bytes("exchangerate/" + day2), as: UTF8.self)
            let broken = original.replacingOccurrences(of: "\"KRW\":1335.841127", with: "\"KRW\":0")
                .replacingOccurrences(of: "\"JPY\":145.351276", with: "\"JPY\":-145.351276")
            #expect(broken != original)
            let run = await runCLI(
                ["rates", "--to", "KRW,JPY,EUR", "-f", "json"], environment: ["AGG_HOME": home],
                http: ScriptedHTTPClient(body: broken), now: august(20, 6))
            #expect(run.status == 1)
            #expect(try codes(run) == ["EUR"])
            #expect(
                try rows(run)["EUR"] == Row(rate: "0.901844", previous: "0.907539", change: "-0.005695", trend: "flat"))
            #expect(
                run.errorLines == [
                    "agg: exchangerate: JPY rate -145.351276 refused: an exchange rate must be above zero",
                    "agg: exchangerate: KRW rate 0 refused: an exchange rate must be above zero",
                    "agg: exchangerate: the USD table of 2024-08-20 00:02:31 UTC was not stored: it has refused rates",
                ])
            #expect(try store(home).snapshotCount(base: "USD") == 1)
            #expect(try store(home).latestSnapshot(base: "USD")?.asOf == Timestamp(secondsSince1970: 1_724_025_751))
        }
    }

    @Test("--keep 1 compares with the day before, then prunes it: one snapshot left")
    func keepOne() async throws {
        try await withTemporaryHome { home async throws in
            #expect(try await rates(["-f", "json", "--keep", "1"], serving: day1, home: home).status == 0)
            let second = try await rates(["-f", "json", "--keep", "1", "--to", "KRW"], serving: day2, home: home)
            #expect(second.status == 0)
            #expect(try second.json()["previousAsOf"].optionalString() == "2024-08-19T00:02:31Z")
            #expect(
                try rows(second)["KRW"]
                    == Row(rate: "1335.841127", previous: "1350.003043", change: "-14.161916", trend: "down"))
            #expect(try store(home).snapshotCount(base: "USD") == 1)
            #expect(try store(home).latestSnapshot(base: "USD")?.asOf == Timestamp(secondsSince1970: 1_724_112_151))
        }
    }

    @Test("an older answer after a newer one compares with nothing older and is dropped by retention")
    func olderAnswerLater() async throws {
        try await withTemporaryHome { home async throws in
            _ = try await rates(["-f", "json"], serving: day2, home: home)
            _ = try await rates(["-f", "json"], serving: day3, home: home)
            let old = try await rates(["-f", "json", "--to", "KRW"], serving: day1, home: home)
            #expect(old.status == 0)
            #expect(try old.json()["previousAsOf"].optionalString() == nil)
            #expect(try store(home).latestSnapshot(base: "USD")?.asOf.iso8601Seconds == "2024-08-21T00:02:31Z")
            #expect(try store(home).snapshotCount(base: "USD") == 2)
        }
    }

    @Test(
        "--threshold moves the line between flat and ▲ ▼",
        arguments: [
            ("2", ["KRW": "down", "JPY": "down", "RUB": "up", "ARS": "flat", "EUR": "flat", "CNY": "flat"]),
            ("1.5", ["ARS": "flat", "RUB": "up"]),
            ("1.4999", ["ARS": "up"]),
            ("0", ["EUR": "down", "GBP": "down", "CNY": "up", "INR": "down", "KWD": "flat", "USD": "flat"]),
            ("0.005", ["EUR": "down", "GBP": "flat", "CHF": "down", "CNY": "up"]),
            (".01", ["CNY": "flat", "INR": "flat", "RUB": "up"]),
            ("20", ["KRW": "flat", "JPY": "flat", "RUB": "flat"]),
        ])
    func threshold(threshold: String, expected: [String: String]) async throws {
        try await withTemporaryHome { home async throws in
            _ = try await rates(["-f", "json"], serving: day1, home: home)
            let run = try await rates(["-f", "json", "--threshold", threshold], serving: day2, home: home)
            #expect(run.status == 0)
            let trends = try rows(run).mapValues(\.trend)
            for (code, trend) in expected {
                #expect(trends[code] == trend, "\(code) with threshold \(threshold)")
            }
        }
    }

    @Test("bases are kept apart: a KRW table does not compare with USD snapshots")
    func basesApart() async throws {
        try await withTemporaryHome { home async throws in
            _ = try await rates(["-f", "json"], serving: day1, home: home)
            _ = try await rates(["-f", "json"], serving: day2, home: home)
            let krw = try await rates(
                ["krw", "-f", "json", "--to", "USD,JPY"], serving: "KRW_2024-08-21.json", home: home)
            #expect(krw.status == 0)
            #expect(try krw.json()["base"].string() == "KRW")
            #expect(try krw.json()["previousAsOf"].optionalString() == nil)
            #expect(try rows(krw)["USD"] == Row(rate: "0.000751016", previous: nil, change: nil, trend: nil))
            #expect(try store(home).snapshotCount(base: "KRW") == 1)
            #expect(try store(home).snapshotCount(base: "USD") == 2)
        }
    }
}

@Suite("agg rates: output")
struct RatesOutputTests {
    @Test("JSON has exactly the documented shape")
    func jsonShape() async throws {
        try await withTemporaryHome { home async throws in
            let run = try await rates(["--to", "KRW", "--format", "json"], serving: day1, home: home)
            #expect(run.status == 0)
            #expect(
                run.output == """
                    {"source":"exchangerate","attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)","base":"USD","asOf":"2024-08-19T00:02:31Z","nextUpdate":"2024-08-20T00:06:21Z",\
                    "previousAsOf":null,\
                    "rates":[{"code":"KRW","rate":"1350.003043","previous":null,"change":null,"trend":null}]}

                    """)
            let next = try await rates(["--to", "KRW,CNY", "--format", "json"], serving: day2, home: home)
            #expect(
                next.output == """
                    {"source":"exchangerate","attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)","base":"USD","asOf":"2024-08-20T00:02:31Z","nextUpdate":"2024-08-21T00:06:21Z",\
                    "previousAsOf":"2024-08-19T00:02:31Z",\
                    "rates":[{"code":"CNY","rate":"7.175629","previous":"7.165629","change":"0.01","trend":"flat"},\
                    {"code":"KRW","rate":"1335.841127","previous":"1350.003043","change":"-14.161916","trend":"down"}]}

                    """)
        }
    }

    @Test("the table: arrows in their own column, a blank when flat, and a footer naming times and source")
    func table() async throws {
        try await withTemporaryHome { home async throws in
            let first = try await rates(["--to", "KRW,EUR", "-f", "table"], serving: day1, home: home)
            #expect(
                first.output == """
                    CODE          RATE     CHANGE
                    EUR       0.907539          -
                    KRW   1,350.003043          -

                    USD base, as of 2024-08-19 00:02:31 UTC; next update 2024-08-20 00:06:21 UTC.
                    No earlier snapshot to compare with yet; arrows appear once the next update is stored.
                    Rates By Exchange Rate API (https://www.exchangerate-api.com)

                    """)
            let run = try await rates(["--to", "KRW,RUB,EUR,CNY,USD", "-f", "table"], serving: day2, home: home)
            #expect(run.status == 0)
            #expect(
                run.output == """
                    CODE          RATE         CHANGE
                    CNY       7.175629          +0.01
                    EUR       0.901844      -0.005695
                    KRW   1,335.841127  ▼  -14.161916
                    RUB      91.454471  ▲   +2.076148
                    USD              1              0

                    USD base, as of 2024-08-20 00:02:31 UTC; next update 2024-08-21 00:06:21 UTC.
                    Compared with 2024-08-19 00:02:31 UTC; ▲ ▼ mark changes of more than 0.01 either way.
                    Rates By Exchange Rate API (https://www.exchangerate-api.com)

                    """)
            // Every row's change ends in the same column, arrows or not.
            let lines = run.output.split(separator: "\n").prefix(6).map { Array($0) }
            #expect(Set(lines.map(\.count)).count == 1)
            #expect(!run.output.contains("\u{1B}["))
        }
    }

    @Test("colour follows the trend, not the sign: a change within the threshold stays plain")
    func colour() async throws {
        try await withTemporaryHome { home async throws in
            _ = try await rates(["-f", "json"], serving: day1, home: home)
            let run = try await rates(
                ["--to", "KRW,RUB,CNY", "-f", "table", "--color", "always"], serving: day2, home: home)
            #expect(run.output.contains("\u{1B}[31m▼\u{1B}[0m  \u{1B}[31m-14.161916\u{1B}[0m"))
            #expect(run.output.contains("\u{1B}[32m▲\u{1B}[0m   \u{1B}[32m+2.076148\u{1B}[0m"))
            #expect(run.output.contains("7.175629          +0.01\n"))
        }
    }

    @Test("CSV has a header row and exact values")
    func csv() async throws {
        try await withTemporaryHome { home async throws in
            _ = try await rates(["-f", "json"], serving: day1, home: home)
            let run = try await rates(["--to", "KRW,ARS,XAF", "-f", "csv"], serving: day2, home: home)
            #expect(
                run.output == """
                    base,code,rate,previous,change,trend
                    USD,ARS,945.5,944,1.5,up
                    USD,KRW,1335.841127,1350.003043,-14.161916,down
                    USD,XAF,593.34111,595.30562,-1.96451,down

                    """)
        }
    }

    @Test("CSV with nothing to compare with: previous, change and trend are empty")
    func csvFirstDay() async throws {
        try await withTemporaryHome { home async throws in
            let run = try await rates(["--to", "KRW", "-f", "csv"], serving: day1, home: home)
            #expect(run.output == "base,code,rate,previous,change,trend\nUSD,KRW,1350.003043,,,\n")
        }
    }

    @Test("favorite currencies come first, in table and JSON alike, then the rest by code")
    func favoritesFirst() async throws {
        try await withTemporaryHome { home async throws in
            let add = await runCLI(["favorites", "add", "KRW", "JPY", "--currency"], environment: ["AGG_HOME": home])
            #expect(add.status == 0)
            let json = try await rates(["-f", "json"], serving: day1, home: home)
            let all = try codes(json)
            #expect(Array(all.prefix(4)) == ["JPY", "KRW", "AED", "AFN"])
            #expect(Array(all.dropFirst(2)) == Array(all.dropFirst(2)).sorted())
            let table = try await rates(["--to", "USD,KRW,EUR,JPY", "-f", "table"], serving: day1, home: home)
            #expect(
                table.output.split(separator: "\n").prefix(5).map { String($0.prefix(3)) } == [
                    "COD", "JPY", "KRW", "EUR", "USD",
                ])
        }
    }

    @Test("codes in --to that the table lacks: a line on stderr and exit 1, the rest still printed")
    func unknownTargets() async throws {
        try await withTemporaryHome { home async throws in
            let run = try await rates(["--to", "krw,XYZ,QQQ,KRW", "-f", "json"], serving: day1, home: home)
            #expect(run.status == 1)
            #expect(try codes(run) == ["KRW"])
            #expect(
                run.errorLines == [
                    "agg: exchangerate: no rate for XYZ in the USD table",
                    "agg: exchangerate: no rate for QQQ in the USD table",
                ])
        }
    }

    @Test("--offline answers from the recorded 2024-08-21 table and says so")
    func offline() async throws {
        try await withTemporaryHome { home async throws in
            let run = await runCLI(
                ["rates", "--offline", "--to", "KRW", "-f", "json"], environment: ["AGG_HOME": home])
            #expect(run.status == 0)
            #expect(try run.json()["asOf"].string() == "2024-08-21T00:02:31Z")
            #expect(try rows(run)["KRW"]?.rate == "1331.529034")
            #expect(
                run.errorLines == [
                    "agg: offline: exchangerate answers from a recorded snapshot from 2024-08-21T00:02:31Z, with some sample data"
                ])
        }
    }

    @Test("--offline answers are stored and compared with older stored snapshots, as 'agg help rates' says")
    func offlineStoresAndCompares() async throws {
        try await withTemporaryHome { home async throws in
            #expect(try await rates(["-f", "json"], serving: day2, home: home, now: august(20, 6)).status == 0)
            let run = await runCLI(
                ["rates", "--offline", "--to", "KRW", "-f", "json"], environment: ["AGG_HOME": home], now: august(20, 7)
            )
            #expect(try run.json()["previousAsOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try store(home).snapshotCount(base: "USD") == 2)
            let help = await runCLI(["help", "rates"])
            let text = help.output.split(separator: "\n").joined(separator: " ")
            #expect(
                text.contains("--offline answers from the fixtures (Fixtures/, or AGG_FIXTURES: recorded answers and"))
            #expect(text.contains("its answers are stored and compared like live ones"))
            #expect(text.contains("a later answer for the same time replaces it"))
            #expect(text.contains("with nothing to compare with there is no trend (null in JSON)"))
            #expect(text.contains("A rate that is zero, negative or outside 1e-12 to 1e12 is refused"))
        }
    }

    @Test("AGG_EXCHANGERATE_URL replaces the base URL and keeps its path prefix; the base is upper-cased")
    func baseURLOverride() async throws {
        try await withTemporaryHome { home async throws in
            let client = try serving("KRW_2024-08-21.json")
            let run = await runCLI(
                ["rates", "krw", "-f", "json"],
                environment: ["AGG_HOME": home, "AGG_EXCHANGERATE_URL": "http://127.0.0.1:8080/fx/"], http: client)
            #expect(run.status == 0)
            #expect(client.requests.map(\.url) == ["http://127.0.0.1:8080/fx/v6/latest/KRW"])
        }
    }

    @Test("without BASE the base is USD, at the provider's default URL")
    func defaultBase() async throws {
        try await withTemporaryHome { home async throws in
            let client = try serving(day1)
            _ = await runCLI(["rates", "-f", "json"], environment: ["AGG_HOME": home], http: client)
            #expect(client.requests.map(\.url) == ["https://open.er-api.com/v6/latest/USD"])
        }
    }
}

@Suite("agg rates: errors")
struct RatesErrorTests {
    @Test(
        "bad command lines exit 64 with one line, before any request and before the database",
        arguments: [
            (["US"], "invalid currency code 'US'"),
            (["usdt"], "invalid currency code 'usdt'"),
            (["U$D"], "invalid currency code 'U$D'"),
            (["USD", "KRW"], "unexpected argument 'KRW'"),
            (["--to", "KR"], "invalid currency code 'KR'"),
            (["--to", "KRW,1NC"], "invalid currency code '1NC'"),
            (["--threshold", "-1"], "invalid --threshold '-1'"),
            (["--threshold", "abc"], "invalid --threshold 'abc'"),
            (["--threshold", "1e5"], "invalid --threshold '1e5'"),
            (["--threshold", ""], "invalid --threshold ''"),
            (["--threshold", "0.0.1"], "invalid --threshold '0.0.1'"),
            (["--threshold", "1,000"], "invalid --threshold '1,000'"),
            (["--threshold", "."], "invalid --threshold '.'"),
            (["--keep", "0"], "invalid --keep '0'"),
            (["--keep", "two"], "invalid --keep 'two'"),
            (["--source", "bithumb"], "bithumb cannot give exchange rates"),
            (["--source", "nope"], "unknown exchange 'nope'"),
            (["--format", "xml"], "invalid value 'xml' for --format"),
            (["--too", "KRW"], "did you mean '--to'?"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let home = unusedTemporaryPath()
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(["rates"] + arguments, environment: ["AGG_HOME": home], http: client)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(run.output.isEmpty)
        #expect(client.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home))
    }

    @Test("--threshold takes what a person types: .5 and 5. as well as 0.5", arguments: [".5", "5.", "0.5"])
    func thresholdForms(text: String) async throws {
        let run = await runCLI(
            ["rates", "--offline", "--threshold", text, "--to", "KRW", "-f", "json"],
            environment: ["AGG_HOME": unusedTemporaryPath()])
        #expect(run.status == 0)
        #expect(run.error.contains("invalid") == false)
    }

    @Test(
        "the provider's errors exit 1 with one line naming the source and the error type",
        arguments: [
            (
                "error_unsupported-code.json", 200,
                "agg: exchangerate: error unsupported-code: the currency code is not supported"
            ),
            (
                "error_quota-reached.json", 200,
                "agg: exchangerate: error quota-reached: the request quota is used up; the open access API blocks for about 20 minutes"
            ),
            ("error_quota-reached.json", 429, "agg: exchangerate: rate limited by exchangerate"),
            (
                "error_malformed-request.json", 200,
                "agg: exchangerate: error malformed-request: the request does not have the form the API expects"
            ),
        ])
    func venueErrors(file: String, status: Int, line: String) async throws {
        try await withTemporaryHome { home async throws in
            let run = await runCLI(
                ["rates", "XXX", "-f", "json"], environment: ["AGG_HOME": home], http: try serving(file, status: status)
            )
            #expect(run.status == 1)
            #expect(run.errorLines == [line])
            #expect(run.output.isEmpty)
            #expect(try store(home).snapshotCount(base: "XXX") == 0)
        }
    }

    @Test("an unsupported code offline is the recorded unsupported-code answer")
    func offlineUnsupported() async throws {
        try await withTemporaryHome { home async throws in
            let run = await runCLI(["rates", "XXX", "--offline"], environment: ["AGG_HOME": home])
            #expect(run.status == 1)
            #expect(
                run.errorLines.last == "agg: exchangerate: error unsupported-code: the currency code is not supported")
        }
    }

    @Test("a database that is not SQLite: exit 70, one line naming the file, no request")
    func corruptDatabase() async throws {
        try await withTemporaryHome { home async throws in
            let path = home + "/agg.sqlite"
            let garbage = (0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 7919) ^ 0x5A) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
            let client = try serving(day1)
            let run = await runCLI(["rates", "-f", "json"], environment: ["AGG_HOME": home], http: client)
            #expect(run.status == 70)
            #expect(run.errorLines.count == 1)
            #expect(run.error.hasPrefix("agg: database: cannot open \(path): "))
            #expect(client.requests.isEmpty)
        }
    }

    @Test("AGG_HOME that is a file: exit 70, one line naming the path")
    func homeIsAFile() async throws {
        try await withTemporaryHome { home async throws in
            let file = home + "/plain-file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            let run = await runCLI(["rates", "-f", "json"], environment: ["AGG_HOME": file], http: try serving(day1))
            #expect(run.status == 70)
            #expect(
                run.errorLines == [
                    "agg: database: cannot create directory \(file) for \(file)/agg.sqlite: \(file) is not a directory"
                ])
        }
    }
}
