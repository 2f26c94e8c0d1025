import AggCore
import AggJSON
import AggStore
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggCLI

/// The ExchangeRate-API's address.
private let fxBase = "https://open.er-api.com"

/// Every venue's base URL, for answering from its recordings.
private let venueBases = [
    "bithumb": "https://api.bithumb.com", "upbit": "https://api.upbit.com", "binance": "https://api.binance.com",
    "coinbase": "https://api.exchange.coinbase.com",
]

/// A moment in UTC, `2024-08-20 06:00`.
private func utc(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Timestamp {
    Timestamp(secondsSince1970: 1_724_025_600 + Int64(day - 19) * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60)
}

/// The recorded USD answer of 2024-08-`day` (19, 20 or 21), as text.
private func usdDay(_ day: Int) throws -> String {
    String(decoding: try Fixtures.bytes("exchangerate/USD_2024-08-\(day).json"), as: UTF8.self)
}

/// The 2024-08-21 answer moved a day later: as of 2024-08-22 00:02:31, next update 2024-08-23.
private func usdDay22() throws -> String {
    try usdDay(21)
        .replacingOccurrences(of: "\"time_last_update_unix\":1724198551", with: "\"time_last_update_unix\":1724284951")
        .replacingOccurrences(of: "\"time_next_update_unix\":1724285181", with: "\"time_next_update_unix\":1724371581")
        .replacingOccurrences(of: "\"KRW\":1331.529034", with: "\"KRW\":1330")
}

/// A network where every venue answers from its recordings and the FX source answers `fx`
/// (status and body), recording every request.
private func network(fx: @escaping @Sendable () throws -> (Int, String)) throws -> AsyncScriptedHTTPClient {
    let responder = try FixtureResponder(venues: venueBases)
    return AsyncScriptedHTTPClient { request in
        if request.url.hasPrefix(fxBase) {
            let (status, body) = try fx()
            return HTTPResponse(status: status, headers: [], body: Array(body.utf8), url: request.url)
        }
        return try responder.respond(to: request)
    }
}

/// An FX source that serves `body`.
private func serving(_ body: String, status: Int = 200) throws -> AsyncScriptedHTTPClient {
    try network { (status, body) }
}

/// The FX requests among `client`'s.
private func fxRequests(_ client: AsyncScriptedHTTPClient) -> Int {
    client.requests.filter { $0.url.hasPrefix(fxBase) }.count
}

private func agg(_ arguments: [String], home: String, http: AsyncScriptedHTTPClient, now: Timestamp) async -> CLIRun {
    await runCLI(arguments, environment: ["AGG_HOME": home], http: http, now: now)
}

private func store(_ home: String) throws -> Store {
    try Store.open(path: home + "/agg.sqlite")
}

@Suite("agg rates: the day's snapshot from the store")
struct StoredRatesTests {
    @Test("before the provider's next update the stored table answers, with no request and the same output")
    func storedBeforeNextUpdate() async throws {
        try await withTemporaryHome { home async throws in
            let day19 = try serving(try usdDay(19))
            #expect(await agg(["rates", "-f", "json"], home: home, http: day19, now: utc(19, 6)).status == 0)
            #expect(fxRequests(day19) == 1)

            let day20 = try serving(try usdDay(20))
            for format in ["json", "table", "csv"] {
                let arguments = ["rates", "--to", "KRW,JPY,EUR", "-f", format]
                let fetched = await agg(arguments, home: home, http: day20, now: utc(20, 6))
                // Later the same day the provider has nothing newer: a server with other rates
                // (or none at all) is not asked, and the output is the fetched one.
                let elsewhere = try serving(try usdDay(21))
                let stored = await agg(arguments, home: home, http: elsewhere, now: utc(20, 23, 59))
                #expect(fxRequests(elsewhere) == 0, "\(format)")
                #expect(stored.status == 0)
                #expect(stored.output == fetched.output, "\(format)")
                #expect(stored.error == fetched.error)
            }
            #expect(fxRequests(day20) == 1)
            let json = await agg(["rates", "--to", "KRW", "-f", "json"], home: home, http: day20, now: utc(20, 12))
            #expect(try json.json()["asOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try json.json()["previousAsOf"].string() == "2024-08-19T00:02:31Z")
            #expect(try json.json()["rates"][0]["change"].string() == "-14.161916")
            #expect(fxRequests(day20) == 1)
        }
    }

    @Test(
        "from the provider's next update on (2024-08-21 00:06:21), the rates are fetched again",
        arguments: [(utc(21, 0, 6), 0), (Timestamp(secondsSince1970: 1_724_198_781), 1), (utc(21, 6), 1)])
    func fetchedFromNextUpdate(now: Timestamp, requests: Int) async throws {
        try await withTemporaryHome { home async throws in
            _ = await agg(["rates", "-f", "json"], home: home, http: try serving(try usdDay(20)), now: utc(20, 6))
            let day21 = try serving(try usdDay(21))
            let run = await agg(["rates", "--to", "KRW", "-f", "json"], home: home, http: day21, now: now)
            #expect(run.status == 0)
            #expect(fxRequests(day21) == requests)
            #expect(
                try run.json()["asOf"].string() == (requests == 0 ? "2024-08-20T00:02:31Z" : "2024-08-21T00:02:31Z"))
        }
    }

    @Test("--refresh asks the provider even when the stored table is current")
    func refresh() async throws {
        try await withTemporaryHome { home async throws in
            _ = await agg(["rates", "-f", "json"], home: home, http: try serving(try usdDay(19)), now: utc(19, 6))
            let day20 = try serving(try usdDay(20))
            let run = await agg(
                ["rates", "--refresh", "--to", "KRW", "-f", "json"], home: home, http: day20, now: utc(19, 7))
            #expect(fxRequests(day20) == 1)
            #expect(try run.json()["asOf"].string() == "2024-08-20T00:02:31Z")
            #expect(try run.json()["previousAsOf"].string() == "2024-08-19T00:02:31Z")
            #expect(try store(home).snapshotCount(base: "USD") == 2)
        }
    }

    @Test("a stored table of another base does not answer for this one")
    func otherBase() async throws {
        try await withTemporaryHome { home async throws in
            _ = await agg(["rates", "-f", "json"], home: home, http: try serving(try usdDay(21)), now: utc(21, 6))
            let krw = try serving(
                String(decoding: try Fixtures.bytes("exchangerate/KRW_2024-08-21.json"), as: UTF8.self))
            let run = await agg(["rates", "KRW", "--to", "USD", "-f", "json"], home: home, http: krw, now: utc(21, 7))
            #expect(fxRequests(krw) == 1)
            #expect(try run.json()["base"].string() == "KRW")
        }
    }

    @Test("--offline answers from the recordings and never reads stored snapshots")
    func offlineIgnoresStore() async throws {
        try await withTemporaryHome { home async throws in
            let invented = RateTable(
                source: "exchangerate", base: "USD", rates: ["KRW": 999], asOf: utc(30, 0),
                nextUpdate: Timestamp(secondsSince1970: 4_102_444_800))
            try store(home).saveSnapshot(invented)
            let run = await runCLI(
                ["rates", "--offline", "--to", "KRW", "-f", "json"], environment: ["AGG_HOME": home], now: utc(30, 1))
            #expect(run.status == 0)
            #expect(try run.json()["asOf"].string() == "2024-08-21T00:02:31Z")
            #expect(try run.json()["rates"][0]["rate"].string() == "1331.529034")
        }
    }
}

@Suite("agg compare: FX rates from the store")
struct CompareStoredRatesTests {
    let arguments = ["compare", "BTC", "-e", "upbit,coinbase", "-f", "json"]

    @Test("compare stores the rates it fetches and reuses them until the next update; --refresh asks anyway")
    func storesAndReuses() async throws {
        try await withTemporaryHome { home async throws in
            let day21 = try serving(try usdDay(21))
            let first = await agg(arguments, home: home, http: day21, now: utc(21, 6))
            #expect(first.status == 0)
            #expect(fxRequests(day21) == 1)
            #expect(
                try first.json()["fx"][0]["rate"].string() == "1331.529034"
                    && first.json()["fx"][0]["asOf"].string() == "2024-08-21T00:02:31Z")
            let stored = try #require(try store(home).latestSnapshot(base: "USD"))
            #expect(stored.asOf == Timestamp(secondsSince1970: 1_724_198_551))
            #expect(stored.nextUpdate == Timestamp(secondsSince1970: 1_724_285_181))
            #expect(stored.rates.count == 162)

            // Later that day: the stored table, no FX request, the same answer.
            let down = try serving("<html>forbidden</html>", status: 403)
            let second = await agg(arguments, home: home, http: down, now: utc(21, 23))
            #expect(fxRequests(down) == 0)
            #expect(down.requests.count == day21.requests.count - 1)
            #expect(second.status == 0)
            // The same answer, but for the quotes' ages, measured at each run's time.
            #expect(AgeFields.stripped(text: second.output) == AgeFields.stripped(text: first.output))
            #expect(second.error.isEmpty)

            // --refresh asks, and the refusal is reported as usual.
            let refreshed = await agg(arguments + ["--refresh"], home: home, http: down, now: utc(21, 23))
            #expect(fxRequests(down) == 1)
            #expect(refreshed.status == 1)

            // After the next update: asked again, and the new table stored.
            let day22 = try serving(try usdDay22())
            let third = await agg(arguments, home: home, http: day22, now: utc(22, 1))
            #expect(fxRequests(day22) == 1)
            #expect(try third.json()["fx"][0]["rate"].string() == "1330")
            #expect(try store(home).latestSnapshot(base: "USD")?.asOf == Timestamp(secondsSince1970: 1_724_284_951))
            #expect(try store(home).snapshotCount(base: "USD") == 2)
        }
    }

    @Test("a snapshot stored by agg rates serves compare without an FX request")
    func fromRates() async throws {
        try await withTemporaryHome { home async throws in
            _ = await agg(["rates", "-f", "json"], home: home, http: try serving(try usdDay(20)), now: utc(20, 6))
            let client = try serving(try usdDay(21))
            let run = await agg(arguments, home: home, http: client, now: utc(20, 7))
            #expect(run.status == 0)
            #expect(fxRequests(client) == 0)
            #expect(
                try run.json()["fx"][0].value?.serialized()
                    == #"{"from":"USD","to":"KRW","rate":"1335.841127","source":"exchangerate","asOf":"2024-08-20T00:02:31Z","attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)"}"#
            )
            let after = await agg(arguments, home: home, http: client, now: utc(21, 1))
            #expect(fxRequests(client) == 1)
            #expect(try after.json()["fx"][0]["rate"].string() == "1331.529034")
        }
    }

    @Test("compare keeps as many snapshots as agg rates --keep left, and at least two")
    func retention() async throws {
        try await withTemporaryHome { home async throws in
            for (day, hour) in [(19, 6), (20, 6), (21, 6)] {
                let client = try serving(try usdDay(day))
                #expect(
                    await agg(["rates", "--keep", "3", "-f", "json"], home: home, http: client, now: utc(day, hour))
                        .status == 0)
            }
            #expect(try store(home).snapshotCount(base: "USD") == 3)
            _ = await agg(arguments, home: home, http: try serving(try usdDay22()), now: utc(22, 6))
            #expect(try store(home).snapshotCount(base: "USD") == 3)
            #expect(try store(home).latestSnapshot(base: "USD")?.asOf == Timestamp(secondsSince1970: 1_724_284_951))
        }
    }

    @Test("--offline neither reads stored rates nor creates the database")
    func offline() async throws {
        try await withTemporaryHome { home async throws in
            let offline = ["compare", "BTC", "-e", "upbit,coinbase", "--offline", "-f", "json"]
            let fresh = home + "/fresh"
            let clean = await runCLI(offline, environment: ["AGG_HOME": fresh], now: utc(21, 6))
            #expect(clean.status == 0)
            #expect(!FileManager.default.fileExists(atPath: fresh))
            let invented = RateTable(
                source: "exchangerate", base: "USD", rates: ["KRW": 999], asOf: utc(21, 1),
                nextUpdate: Timestamp(secondsSince1970: 4_102_444_800))
            try store(home).saveSnapshot(invented)
            let run = await runCLI(offline, environment: ["AGG_HOME": home], now: utc(21, 6))
            #expect(run.output == clean.output)
            #expect(try run.json()["fx"][0]["rate"].string() == "1331.529034")
        }
    }

    @Test("an unusable database changes nothing in compare's answer", arguments: ["garbage", "home is a file"])
    func unusableStore(kind: String) async throws {
        try await withTemporaryHome { folder async throws in
            let home = folder + "/home"
            if kind == "garbage" {
                try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 7919) ^ 0x5A) })
                #expect(FileManager.default.createFile(atPath: home + "/agg.sqlite", contents: garbage))
            } else {
                #expect(FileManager.default.createFile(atPath: home, contents: Data("x".utf8)))
            }
            let client = try serving(try usdDay(21))
            let broken = await agg(arguments, home: home, http: client, now: utc(21, 6))
            let expected = await agg(
                arguments, home: folder + "/fresh", http: try serving(try usdDay(21)), now: utc(21, 6))
            #expect(broken.status == 0)
            #expect(broken.output == expected.output)
            #expect(broken.error.isEmpty)
            #expect(fxRequests(client) == 1)
        }
    }
}
