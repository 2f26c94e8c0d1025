import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServices

/// Every command that shows quotes shows their age, with an injected clock: the recorded Bithumb
/// BTC ticker (venue time 2024-08-08T08:12:15.027Z) received and shown 12.5 s later.
@Suite("quote ages in every output")
struct QuoteAgeOutputTests {
    static let venueTime: Int64 = 1_723_104_735_027
    static func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: venueTime + milliseconds) }
    static let now = at(12_500)

    static let quoteJSON = """
        {"exchange":"bithumb","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80630000",\
        "open":"79934000","high":"81500000","low":"77734000","previousClose":"79999000","change":"-435000",\
        "changePercent":"-0.54","changeBasis":"rolling24h","baseVolume":"1368.01423432",\
        "quoteVolume":"109282011238.50126","timestamp":"2024-08-08T08:12:15.027Z",\
        "receivedAt":"2024-08-08T08:12:27.527Z","ageSeconds":"12.500","stale":false}
        """

    @Test("quote JSON: receivedAt is the injected clock's time of the answer, ageSeconds now − venue time")
    func quoteJSON() async throws {
        let run = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"], now: Self.now)
        #expect(run.status == 0)
        #expect(run.output == #"{"quotes":["# + Self.quoteJSON + #"],"errors":[]}"# + "\n")
    }

    @Test("--stale-after: stale just past the limit, fresh exactly at it (flag, environment and config file)")
    func staleAfter() async throws {
        func stale(_ extra: [String], now: Timestamp, environment: [String: String] = [:]) async throws -> Bool {
            let run = await runCLI(
                ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "json"] + extra, environment: environment,
                now: now)
            #expect(run.status == 0, "\(run.error)")
            return try run.json()["quotes"][0]["stale"].bool()
        }
        #expect(try await stale([], now: Self.at(30_000)) == false)
        #expect(try await stale([], now: Self.at(30_001)) == true)
        #expect(try await stale(["--stale-after", "12s"], now: Self.at(12_000)) == false)
        #expect(try await stale(["--stale-after", "12s"], now: Self.at(12_001)) == true)
        #expect(try await stale(["--stale-after", "1m"], now: Self.at(59_000)) == false)
        #expect(try await stale([], now: Self.at(12_001), environment: ["AGG_STALE_AFTER": "12"]) == true)
        try await withTemporaryHome { home in
            let config = home + "/config.json"
            try #"{"staleAfter":"12s"}"#.write(toFile: config, atomically: true, encoding: .utf8)
            let environment = ["AGG_CONFIG": config]
            #expect(try await stale([], now: Self.at(12_001), environment: environment) == true)
            #expect(try await stale([], now: Self.at(12_000), environment: environment) == false)
        }
    }

    @Test("--stale-after takes the duration grammar; anything else is a usage error (64)")
    func badStaleAfter() async {
        let run = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "--stale-after", "soon"])
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: invalid --stale-after 'soon': expected seconds (30) or a duration such as 30s, 10m or 1h"
            ])
    }

    @Test("quote CSV: stale, then receivedAt and ageSeconds after the existing columns")
    func quoteCSV() async throws {
        let run = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "csv"], now: Self.now)
        #expect(
            run.output == """
                exchange,symbol,base,quote,last,open,high,low,previousClose,change,changePercent,changeBasis,\
                baseVolume,quoteVolume,timestamp,stale,receivedAt,ageSeconds
                bithumb,BTC/KRW,BTC,KRW,80630000,79934000,81500000,77734000,79999000,-435000,-0.54,rolling24h,\
                1368.01423432,109282011238.50126,2024-08-08T08:12:15.027Z,false,2024-08-08T08:12:27.527Z,12.500

                """)
    }

    @Test("quote table: an AGE column last, with a stale mark; coloured only on request")
    func quoteTable() async throws {
        let fresh = await runCLI(["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table"], now: Self.now)
        let lines = fresh.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("UPDATED (UTC)        AGE"))
        #expect(lines[1].hasSuffix("2024-08-08 08:12:15  12s"))
        let stale = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table", "--stale-after", "10s"], now: Self.now)
        #expect(stale.output.split(separator: "\n").last?.hasSuffix("2024-08-08 08:12:15  12s stale") == true)
        let coloured = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table", "--stale-after", "10s", "--color", "always"],
            now: Self.now)
        #expect(coloured.output.hasSuffix("\u{1B}[33m12s\u{1B}[0m \u{1B}[31mstale\u{1B}[0m\n"))
        let noColor = await runCLI(
            ["quote", "BTC", "-e", "bithumb", "--offline", "-f", "table", "--stale-after", "10s"],
            environment: ["NO_COLOR": "1"], terminal: true, now: Self.now)
        #expect(!noColor.output.contains("\u{1B}["))
        #expect(noColor.output.hasSuffix("12s stale\n"))
    }

    @Test("watch JSON lines carry the same three fields after each quote")
    func watchJSON() async throws {
        let run = await runCLI(
            ["watch", "BTC", "-e", "bithumb", "--offline", "-c", "1", "-f", "json"], now: Self.now)
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output
                == #"{"time":"2024-08-08T08:12:27.527Z","quotes":["# + Self.quoteJSON + #"],"errors":[]}"# + "\n")
    }
}
