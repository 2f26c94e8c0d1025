import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggOptions
@testable import AggServices

/// The moment of the first (caching) run in these tests: 2024-08-08T08:13:20Z.
private let cachedAt = Timestamp(millisecondsSince1970: 1_723_104_800_000)

/// `cachedAt` plus `milliseconds`.
private func later(_ milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: cachedAt.millisecondsSince1970 + milliseconds)
}

/// A venue that never answers in time.
private func timingOut() -> ScriptedHTTPClient {
    ScriptedHTTPClient { request in throw TransportError.timeout(url: request.url, seconds: 2) }
}

/// `agg quote` with Bithumb as the only venue, in the database at `home`, at `now`.
private func quote(
    _ arguments: [String], home: String, http: any HTTPClient, now: Timestamp, terminal: Bool = false,
    environment: [String: String] = [:]
) async -> CLIRun {
    await runCLI(
        ["quote"] + arguments + ["-e", "bithumb"], environment: environment.merging(["AGG_HOME": home]) { $1 },
        http: http, terminal: terminal, registry: bithumbRegistry(), now: now)
}

/// Caches Bithumb's recorded quotes of `coins` at `cachedAt` in the database at `home`.
private func cache(_ coins: [String], home: String) async throws {
    let run = await quote(coins + ["-f", "json"], home: home, http: try recordedBithumb(), now: cachedAt)
    try #require(run.status == 0)
}

/// The age a stand-in shows `milliseconds` after `cachedAt`: from the venue's time,
/// 2024-08-08T08:12:15.027Z, 64.973 s before `cachedAt`.
private func ageText(_ milliseconds: Int64) -> String {
    QuoteAging.secondsText(QuoteAge(milliseconds: milliseconds + 64_973, basis: .venueTime))
}

/// The recorded BTC/KRW quote as `agg quote` prints it, up to and including its timestamp.
private let btcQuoteJSON = """
    {"exchange":"bithumb","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80630000",\
    "open":"79934000","high":"81500000","low":"77734000","previousClose":"79999000","change":"-435000",\
    "changePercent":"-0.54","changeBasis":"rolling24h","baseVolume":"1368.01423432",\
    "quoteVolume":"109282011238.50126","timestamp":"2024-08-08T08:12:15.027Z"
    """

@Suite("agg quote: stale quotes from the cache")
struct StaleQuoteTests {
    @Test("a live run caches its quotes at the run's time, creating the database")
    func caches() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC", "ETH"], home: home)
            let store = try Store.open(path: home + "/agg.sqlite")
            let btc = try #require(
                try store.cachedQuote(exchange: "bithumb", market: Market(base: "BTC", quote: "KRW")))
            #expect(btc.fetchedAt == cachedAt)
            #expect(btc.quote.last.description == "80630000")
            #expect(btc.quote.timestamp?.description == "2024-08-08T08:12:15.027Z")
            let eth = try store.cachedQuote(exchange: "bithumb", market: Market(base: "ETH", quote: "KRW"))
            #expect(eth?.quote.last.description == "3406000")
        }
    }

    @Test("a venue that times out within --max-stale: the cached quote marked stale, the error still reported, exit 1")
    func staleJSON() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let client = timingOut()
            let run = await quote(
                ["BTC", "-f", "json", "--timeout", "2"], home: home, http: client, now: later(185_500))
            #expect(run.status == 1)
            #expect(
                run.output == """
                    {"quotes":[\(btcQuoteJSON),"receivedAt":"2024-08-08T08:13:20.000Z","ageSeconds":"250.473",\
                    "stale":true}],"errors":[\
                    {"exchange":"bithumb","symbol":"BTC/KRW","kind":"timeout","code":null,\
                    "message":"no answer within 2 s from https://api.bithumb.com/public/ticker/BTC_KRW"}]}

                    """)
            #expect(
                run.errorLines == [
                    "agg: bithumb BTC/KRW: no answer within 2 s from https://api.bithumb.com/public/ticker/BTC_KRW"
                ])
            #expect(client.requests.count == 1)
        }
    }

    @Test(
        "the cached quote stands in only while younger than --max-stale (default 10 minutes)",
        arguments: [
            (599_999, [], 599),
            (600_000, [], nil),
            (3_600_000, [], nil),
            (3_600_000, ["--max-stale", "2h"], 3600),
            (1_000, ["--max-stale", "0"], nil),
            (1_000, ["--max-stale", "0s"], nil),
            (29_999, ["--max-stale", "30s"], 29),
            (30_000, ["--max-stale", "30"], nil),
            (119_000, ["--max-stale=2m"], 119),
            (-5_000, [], 0),
        ] as [(Int64, [String], Int64?)])
    func maxStale(offset: Int64, arguments: [String], age: Int64?) async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let run = await quote(["BTC", "-f", "json"] + arguments, home: home, http: timingOut(), now: later(offset))
            #expect(run.status == 1)
            let quotes = try run.json()["quotes"].elements()
            // The age is the quote's (from the venue's time); `age` only says whether it stands in.
            #expect(try quotes.map { try $0["ageSeconds"].string() } == (age.map { _ in [ageText(offset)] } ?? []))
            #expect(try quotes.map { try $0["receivedAt"].string() } == (age.map { _ in [cachedAt.description] } ?? []))
            #expect(try run.json()["errors"][0]["kind"].string() == "timeout")
            #expect(run.errorLines.count == 1)
        }
    }

    @Test(
        "a venue error or an HTTP failure shows the stale quote",
        arguments: [
            (#"{"status":"5600","message":"점검 중"}"#, 200, "venue"),
            ("<html>oops</html>", 500, "http"),
        ])
    func failureKinds(body: String, status: Int, kind: String) async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let client = ScriptedHTTPClient(status: status, body: body)
            let run = await quote(["BTC", "-f", "json"], home: home, http: client, now: later(60_000))
            #expect(run.status == 1)
            let json = try run.json()
            #expect(try json["errors"][0]["kind"].string() == kind)
            #expect(try json["quotes"].elements().count == 1)
            #expect(json["quotes"][0]["stale"].value == .bool(true))
            #expect(try json["quotes"][0]["ageSeconds"].string() == "124.973")
            #expect(try json["quotes"][0]["last"].string() == "80630000")
        }
    }

    @Test("a venue that says a cached market is no longer listed has answered: no stale quote for it")
    func notListed() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC", "ETH"], home: home)
            let delisted = try recordedBithumb { body, _ in
                body.replacingOccurrences(of: "\"ETH\":{", with: "\"ETX\":{")
            }
            let run = await quote(["BTC", "ETH", "-f", "json"], home: home, http: delisted, now: later(60_000))
            #expect(run.status == 1)
            let json = try run.json()
            #expect(try json["quotes"].elements().map { try $0["symbol"].string() } == ["BTC/KRW"])
            // BTC answered: received now, not the cached quote.
            #expect(try json["quotes"][0]["receivedAt"].string() == later(60_000).description)
            #expect(try json["errors"][0]["kind"].string() == "notListed")
            #expect(run.errorLines == ["agg: bithumb ETH/KRW: not listed"])
        }
    }

    @Test("Bithumb's 5500 on a single coin means not listed: never answered from the cache")
    func notListedSingle() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["ETH"], home: home)
            let unlisted = String(decoding: try Fixtures.bytes("bithumb/error_5500_unlisted.json"), as: UTF8.self)
            let client = ScriptedHTTPClient(body: unlisted)
            let run = await quote(["ETH", "-f", "json"], home: home, http: client, now: later(60_000))
            #expect(run.status == 1)
            #expect(client.requests.map(\.url) == ["https://api.bithumb.com/public/ticker/ETH_KRW"])
            #expect(
                run.output == """
                    {"quotes":[],"errors":[{"exchange":"bithumb","symbol":"ETH/KRW","kind":"notListed",\
                    "code":"5500","message":"잘못된 코인명입니다."}]}

                    """)
            #expect(
                run.errorLines == [
                    "agg: bithumb ETH/KRW: not listed (error 5500: 잘못된 코인명입니다. [English: invalid coin name])"
                ])
        }
    }

    @Test("fresh quotes keep their shape: no stale keys, whatever the cache holds")
    func freshShape() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let run = await quote(["BTC", "-f", "json"], home: home, http: try recordedBithumb(), now: later(60_000))
            #expect(run.status == 0)
            // Answered now: received now, and 124.973 s old (older than --stale-after).
            #expect(
                run.output
                    == "{\"quotes\":[\(btcQuoteJSON),\"receivedAt\":\"2024-08-08T08:14:20.000Z\","
                    + "\"ageSeconds\":\"124.973\",\"stale\":true}],\"errors\":[]}\n")
            #expect(run.error.isEmpty)
            // The second fetch refreshed the cache's time.
            let store = try Store.open(path: home + "/agg.sqlite")
            #expect(
                try store.cachedQuote(exchange: "bithumb", market: Market(base: "BTC", quote: "KRW"))?.fetchedAt
                    == later(60_000))
        }
    }

    @Test("the table shows the cached values with UPDATED reading 'stale, 3m ago'; a market never cached stays failed")
    func table() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let run = await quote(
                ["BTC", "ETH", "-f", "table", "--timeout", "2"], home: home, http: timingOut(), now: later(185_500))
            #expect(run.status == 1)
            #expect(
                run.output == """
                    EXCHANGE  MARKET         LAST       24H    CHANGE        HIGH         LOW    VOLUME  UPDATED (UTC)       AGE
                    bithumb   BTC/KRW  80,630,000  ▼ -0.54%  -435,000  81,500,000  77,734,000  1,368.01  stale, 3m ago  4m stale
                    bithumb   ETH/KRW      failed   timeout

                    """)
            // Both markets were in the one ALL_KRW request that timed out: one line for both.
            #expect(
                run.errorLines == [
                    "agg: bithumb 2 markets (BTC/KRW, ETH/KRW): no answer within 2 s from https://api.bithumb.com/public/ticker/ALL_KRW"
                ])
            let hours = await quote(
                ["BTC", "-f", "table", "--color", "always", "--max-stale", "3h"], home: home, http: timingOut(),
                now: later(7_300_000))
            #expect(hours.output.contains("\u{1B}[33mstale, 2h ago\u{1B}[0m"))
        }
    }

    @Test("on a narrow terminal the UPDATED column stays while it carries a stale mark")
    func narrow() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let stale = await runCLI(
                ["quote", "BTC", "-e", "bithumb", "-f", "table"], environment: ["AGG_HOME": home], http: timingOut(),
                width: 60, registry: bithumbRegistry(), now: later(1_000))
            #expect(stale.output.contains("stale, 1s ago"))
            let fresh = await runCLI(
                ["quote", "BTC", "-e", "bithumb", "-f", "table"], environment: ["AGG_HOME": home],
                http: try recordedBithumb(), width: 60, registry: bithumbRegistry(), now: later(1_000))
            #expect(!fresh.output.contains("UPDATED"))
        }
    }

    @Test("a stale quote keeps its venue's change basis: Upbit's is since 00:00 UTC")
    func staleChangeBasis() async throws {
        try await withTemporaryHome { home async throws in
            let upbit = try Fixtures.recordingClient("upbit", baseURL: "https://api.upbit.com")
            let arguments = ["quote", "BTC", "-e", "upbit"]
            let first = await runCLI(
                arguments + ["-f", "json"], environment: ["AGG_HOME": home], http: upbit, now: cachedAt)
            try #require(first.status == 0)
            let json = await runCLI(
                arguments + ["-f", "json"], environment: ["AGG_HOME": home], http: timingOut(), now: later(1_000))
            #expect(json.status == 1)
            #expect(try json.json()["quotes"][0]["stale"].value == .bool(true))
            #expect(try json.json()["quotes"][0]["changeBasis"].string() == "sinceUTCMidnight")
            let table = await runCLI(
                arguments + ["-f", "table"], environment: ["AGG_HOME": home], http: timingOut(), now: later(1_000))
            #expect(table.output.contains("CHANGE %  BASIS"))
            #expect(table.output.contains("▲ +1.35%  since 00:00 UTC"))
        }
    }

    @Test("CSV ends every row and the header with a stale column")
    func csv() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let run = await quote(["BTC", "-f", "csv"], home: home, http: timingOut(), now: later(1_000))
            #expect(run.status == 1)
            #expect(
                run.output == """
                    exchange,symbol,base,quote,last,open,high,low,previousClose,change,changePercent,changeBasis,baseVolume,quoteVolume,timestamp,stale,receivedAt,ageSeconds
                    bithumb,BTC/KRW,BTC,KRW,80630000,79934000,81500000,77734000,79999000,-435000,-0.54,rolling24h,1368.01423432,109282011238.50126,2024-08-08T08:12:15.027Z,true,2024-08-08T08:13:20.000Z,65.973

                    """)
        }
    }

    @Test("quotes cached by --all stand in for a single coin later")
    func allCaches() async throws {
        try await withTemporaryHome { home async throws in
            let all = await quote(["--all", "-f", "json"], home: home, http: try recordedBithumb(), now: cachedAt)
            #expect(all.status == 0)
            let run = await quote(["XRP", "-f", "json"], home: home, http: timingOut(), now: later(2_000))
            let quotes = try run.json()["quotes"].elements()
            #expect(try quotes.map { try $0["symbol"].string() } == ["XRP/KRW"])
            #expect(try quotes.map { try $0["ageSeconds"].string() } == [ageText(2_000)])
        }
    }

    @Test("offline runs neither create the database nor write the cache")
    func offline() async throws {
        try await withTemporaryHome { home async throws in
            let path = home + "/agg.sqlite"
            let run = await quote(["BTC", "--offline", "-f", "json"], home: home, http: timingOut(), now: cachedAt)
            #expect(run.status == 0)
            #expect(!FileManager.default.fileExists(atPath: path))
            // With a database there, still nothing is cached.
            #expect(await runCLI(["favorites", "add", "BTC"], environment: ["AGG_HOME": home]).status == 0)
            _ = await quote(["BTC", "--offline", "-f", "json"], home: home, http: timingOut(), now: cachedAt)
            let store = try Store.open(path: path)
            #expect(try store.cachedQuote(exchange: "bithumb", market: Market(base: "BTC", quote: "KRW")) == nil)
        }
    }

    @Test(
        "an unusable database changes nothing: the same output, stderr and exit code as a fresh one",
        arguments: ["garbage", "home is a file", "home under a file"])
    func unusableStore(kind: String) async throws {
        try await withTemporaryHome { folder async throws in
            var home = folder + "/home"
            switch kind {
            case "garbage":
                try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 7919) ^ 0x5A) })
                #expect(FileManager.default.createFile(atPath: home + "/agg.sqlite", contents: garbage))
            case "home is a file":
                #expect(FileManager.default.createFile(atPath: home, contents: Data("x".utf8)))
            default:
                #expect(FileManager.default.createFile(atPath: folder + "/file", contents: Data("x".utf8)))
                home = folder + "/file/agg"
            }
            let before = FileManager.default.contents(atPath: home + "/agg.sqlite")
            for (index, (arguments, http)) in [
                (["BTC", "ETH", "-f", "json"], try recordedBithumb() as any HTTPClient),
                (["BTC", "-f", "table"], timingOut() as any HTTPClient),
                (["BTC", "--offline", "-f", "csv"], timingOut() as any HTTPClient),
            ].enumerated() {
                let fresh = folder + "/fresh-\(index)"
                let broken = await quote(arguments, home: home, http: http, now: cachedAt)
                let expected = await quote(arguments, home: fresh, http: http, now: cachedAt)
                #expect(broken.status == expected.status, "\(arguments)")
                #expect(broken.output == expected.output, "\(arguments)")
                #expect(broken.error == expected.error, "\(arguments)")
            }
            #expect(FileManager.default.contents(atPath: home + "/agg.sqlite") == before)
        }
    }

    @Test(
        "a bad --max-stale is a usage error naming the value, before any request",
        arguments: ["abc", "-5", "1.5m", "10w", "", "m", "5 m", "1e3", "99999999999999h", "3600000000"])
    func badMaxStale(text: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(["quote", "BTC", "-e", "bithumb", "--max-stale", text], http: client)
        #expect(run.status == 64)
        #expect(
            run.errorLines == [
                "agg: invalid --max-stale '\(text)': expected seconds (600) or a duration such as 30s, 10m or 1h"
            ])
        #expect(client.requests.isEmpty)
    }

    @Test("the config file's maxStale is the default that --max-stale overrides")
    func configured() async throws {
        try await withTemporaryHome { home async throws in
            try await cache(["BTC"], home: home)
            let path = try configFile(#"{"maxStale":"30s"}"#)
            let environment = ["AGG_CONFIG": path]
            let beyond = await quote(
                ["BTC", "-f", "json"], home: home, http: timingOut(), now: later(45_000), environment: environment)
            #expect(try beyond.json()["quotes"].elements().isEmpty)
            let flagged = await quote(
                ["BTC", "-f", "json", "--max-stale", "1m"], home: home, http: timingOut(), now: later(45_000),
                environment: environment)
            #expect(try flagged.json()["quotes"][0]["ageSeconds"].string() == ageText(45_000))
            let seconds = try configFile(#"{"maxStale":60}"#)
            let numeric = await quote(
                ["BTC", "-f", "json"], home: home, http: timingOut(), now: later(45_000),
                environment: ["AGG_CONFIG": seconds])
            #expect(try numeric.json()["quotes"][0]["ageSeconds"].string() == ageText(45_000))
            let show = await runBithumbCLI(["config", "show"], environment: environment)
            #expect(try show.json()["maxStale"].value == .number("30"))
        }
    }

    @Test(
        "a malformed maxStale in the config file stops the command with exit 78",
        arguments: [
            (#""soon""#, "invalid value 'soon': expected seconds (600) or a duration such as 30s, 10m or 1h"),
            ("-1", "invalid value '-1': expected seconds (600) or a duration such as 30s, 10m or 1h"),
            ("1.5", "invalid value '1.5': expected seconds (600) or a duration such as 30s, 10m or 1h"),
            ("true", "expected a string or a number, found a boolean"),
        ])
    func badConfigured(value: String, problem: String) async throws {
        let path = try configFile("{\"maxStale\":\(value)}")
        let run = await runBithumbCLI(["quote", "BTC", "--offline"], environment: ["AGG_CONFIG": path])
        #expect(run.status == 78)
        // The flag's words (`agg quote --max-stale soon`), at the JSON path.
        #expect(run.errorLines == ["agg: config file \(path): $.maxStale: \(problem)"])
    }
}

@Suite("Durations and ages")
struct DurationTextTests {
    @Test(
        "durations: whole seconds, or a whole number of s, m, h or d",
        arguments: [
            ("600", 600 as Int64?), ("0", 0), ("30s", 30), ("10m", 600), ("1h", 3600), ("0m", 0), ("007", 7),
            ("8784h", 31_622_400), ("8785h", nil), ("31622400", 31_622_400), ("31622401", nil),
            ("", nil), ("s", nil), ("h", nil), ("-1", nil), ("+1", nil), ("1.5", nil), ("1d", 86_400), ("3d", 259_200),
            ("366d", 31_622_400), ("367d", nil), ("1D", nil), ("1H", nil),
            ("10ms", nil), ("1 h", nil), (" 1", nil), ("١٢", nil), ("9999999999999", nil),
        ])
    func parse(text: String, seconds: Int64?) {
        #expect(DurationText.seconds(from: text) == seconds)
    }

    @Test(
        "ages: the largest whole unit",
        arguments: [
            (0 as Int64, "0s ago"), (59, "59s ago"), (60, "1m ago"), (185, "3m ago"), (3599, "59m ago"),
            (3600, "1h ago"), (86_399, "23h ago"), (86_400, "1d ago"), (200_000, "2d ago"), (-3, "0s ago"),
        ])
    func ago(seconds: Int64, text: String) {
        #expect(DurationText.ago(seconds: seconds) == text)
    }
}
