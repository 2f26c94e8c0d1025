import AggCore
import AggServer
import AggTestKit
import Foundation
import Testing

@testable import AggCLI
@testable import AggServe
@testable import AggServices

/// `agg serve`'s JSON endpoints against a real server on loopback, polling the fixture server:
/// each body is exactly what the matching command prints with `--format json` for the same data.
@Suite("agg serve: endpoints answer the CLI's JSON")
struct ServeEndpointTests {
    @Test("/v1/favorites: the local database's lists as `agg favorites list -f json` prints them, none without one")
    func favorites() async throws {
        let home = try temporaryDirectory().appendingPathComponent("home")
        let environment = ["AGG_HOME": home.path]
        let endpoints = ServeEndpoints(
            context: CLIContext(
                registry: testRegistry(), environment: environment,
                console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 200),
                makeHTTPClient: { _ in ScriptedHTTPClient(body: "") }),
            polled: [], history: nil)
        #expect(try endpoints.favorites().get() == #"{"currencies":[],"coins":[]}"# + "\n")
        #expect(!FileManager.default.fileExists(atPath: home.path), "serve creates no database to read favorites")
        #expect(await runCLI(["favorites", "add", "ETH", "SOL", "--coin"], environment: environment).status == 0)
        #expect(await runCLI(["favorites", "add", "JPY", "--currency"], environment: environment).status == 0)
        let listed = await runCLI(["favorites", "list", "-f", "json"], environment: environment)
        #expect(listed.output == #"{"currencies":["JPY"],"coins":["ETH","SOL"]}"# + "\n")
        #expect(try endpoints.favorites().get() == listed.output)
    }

    @Test(
        "each endpoint's body equals the command's JSON",
        arguments: [
            ("/v1/quote?symbol=BTC&exchange=bithumb", ["quote", "BTC", "-e", "bithumb", "-f", "json"]),
            ("/v1/quote?symbol=BTC,ETH&quote=KRW", ["quote", "BTC", "ETH", "--quote", "KRW", "-f", "json"]),
            ("/v1/quote?symbol=BTC", ["quote", "BTC", "-f", "json"]),
            ("/v1/compare?symbol=BTC&in=KRW", ["compare", "BTC", "--in", "KRW", "-f", "json"]),
            ("/v1/compare?symbol=BTC,ETH&in=USD", ["compare", "BTC", "ETH", "--in", "USD", "-f", "json"]),
            ("/v1/premium", ["premium", "-f", "json"]),
            ("/v1/premium?symbol=BTC&basis=usdt", ["premium", "BTC", "--basis", "usdt", "-f", "json"]),
            ("/v1/rates?base=USD&to=KRW,JPY", ["rates", "USD", "--to", "KRW,JPY", "-f", "json"]),
            ("/v1/status?symbol=ETH", ["status", "ETH", "-f", "json"]),
            ("/v1/status?symbol=USDT,XRP&exchange=bithumb", ["status", "USDT", "XRP", "-e", "bithumb", "-f", "json"]),
            ("/v1/exchanges", ["exchanges", "-f", "json"]),
        ])
    func bodyEqualsTheCommand(path: String, command: [String]) async throws {
        let harness = try ServeHarness()
        let snapshot = await harness.poll()
        let answer = try await harness.get(path)
        let run = await harness.cli(command, now: snapshot.time)
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "application/json")
        // Serve's quotes were received as each venue answered the poll, the command's at its one
        // time: the same bytes but for the age members.
        #expect(AgeFields.stripped(text: answer.text) == AgeFields.stripped(text: run.output))
        #expect(!run.output.isEmpty)
    }

    /// Without bithumb: its recorded ALL_KRW lists USDT, while its recordings have no single
    /// USDT_KRW ticker (the command asks for that one and finds it unlisted), so the two would
    /// differ by the data, not by the server.
    @Test("rates from every source equal the command's")
    func ratesFromEverySource() async throws {
        let harness = try ServeHarness(registry: fixedRegistry(["upbit", "binance", "coinbase", "exchangerate"]))
        let snapshot = await harness.poll()
        let answer = try await harness.get("/v1/rates?base=USD&to=KRW&source=all")
        let run = await harness.cli(
            ["rates", "USD", "--to", "KRW", "--source", "all", "-f", "json"], now: snapshot.time)
        #expect(answer.status == 200)
        #expect(answer.text == run.output)
        #expect(answer.text.contains(#""attribution":"Rates By Exchange Rate API (https://www.exchangerate-api.com)""#))
    }

    @Test("the bithumb quote is the recorded ticker, exactly")
    func bithumbQuote() async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get("/v1/quote?symbol=BTC&exchange=bithumb")
        #expect(
            answer.text
                .hasPrefix(
                    #"{"quotes":[{"exchange":"bithumb","symbol":"BTC/KRW","base":"BTC","quote":"KRW","last":"80630000","open":"79934000","high":"81500000","low":"77734000","previousClose":"79999000","change":"-435000","changePercent":"-0.54","changeBasis":"rolling24h","baseVolume":"1368.01423432","quoteVolume":"109282011238.50126","timestamp":"2024-08-08T08:12:15.027Z","receivedAt":""#
                ))
        #expect(answer.text.hasSuffix(#","stale":true}],"errors":[]}"# + "\n"))
    }

    @Test(
        "bad queries are 400 with one JSON line, validated as on the command line",
        arguments: [
            ("/v1/quote", "name at least one symbol: /v1/quote?symbol=BTC"),
            (
                "/v1/quote?symbol=BTC&foo=1",
                "unknown query parameter 'foo'; this endpoint takes exchange, quote, symbol"
            ),
            ("/v1/quote?symbol=BTC&symbol=ETH", "query parameter 'symbol' is given twice; separate values with commas"),
            ("/v1/quote?symbol=--all", "invalid symbol '--all'"),
            ("/v1/quote?symbol=BTC,,ETH", "invalid symbol ''"),
            ("/v1/quote?symbol", "query parameter 'symbol' needs a value"),
            ("/v1/premium?top=0", "invalid --top '0': expected a whole number from 1 to 10000"),
            ("/v1/exchanges?x=1", "/v1/exchanges takes no query parameters"),
            // One rule for every path's parameters, /healthz, /metrics and the stream too.
            ("/healthz?x=1", "/healthz takes no query parameters"),
            ("/metrics?x=1&x=2", "/metrics takes no query parameters"),
            ("/v1/stream?x=1", "/v1/stream takes no query parameters"),
            // A NUL is refused, never taken as the end of the path or the value.
            ("/metrics%00.png", "a NUL or control character in the path"),
            ("/v1/quote?symbol=ETH%00BTC", "a NUL or control character in a query parameter"),
        ])
    func badQueries(path: String, message: String) async throws {
        let harness = try ServeHarness()
        await harness.poll()
        let answer = try await harness.get(path)
        #expect(answer.status == 400)
        #expect(answer.text == HTTPServerResponse.errorText(400, message))
    }

    @Test(
        "symbols, currencies and venue ids are refused with the CLI's own messages",
        arguments: [
            ("/v1/quote?symbol=B%20TC", ["quote", "B TC"]),
            ("/v1/quote?symbol=BTC&exchange=nope", ["quote", "BTC", "-e", "nope"]),
            ("/v1/compare?symbol=BTC&in=KRWX", ["compare", "BTC", "--in", "KRWX"]),
            ("/v1/compare?symbol=BTC/KRW", ["compare", "BTC/KRW"]),
            ("/v1/compare?symbol=BTC&usdt=maybe", ["compare", "BTC", "--usdt", "maybe"]),
            ("/v1/rates?base=USD&source=all&to=KRW,JPY", ["rates", "USD", "--source", "all", "--to", "KRW,JPY"]),
            ("/v1/rates?base=US1", ["rates", "US1"]),
            ("/v1/status?symbol=ETH&exchange=binance", ["status", "ETH", "-e", "binance"]),
        ])
    func refusedLikeTheCLI(path: String, command: [String]) async throws {
        let harness = try ServeHarness()
        let snapshot = await harness.poll()
        let answer = try await harness.get(path)
        let run = await harness.cli(command, now: snapshot.time)
        #expect(run.status == 64)
        let message = String(run.error.dropFirst("agg: ".count).dropLast())
        #expect(answer.status == 400)
        #expect(answer.text == HTTPServerResponse.errorText(400, message))
    }

    @Test("unknown paths are 404, other methods 405, and nothing is served before the first poll")
    func pathsAndMethods() async throws {
        let harness = try ServeHarness()
        let early = try await harness.get("/v1/quote?symbol=BTC")
        #expect(early.status == 503)
        #expect((try await harness.get("/healthz")).status == 503)
        await harness.poll()
        #expect((try await harness.get("/v2/quote")).status == 404)
        let posted = try await harness.get("/v1/quote?symbol=BTC", method: "POST")
        #expect(posted.status == 405)
        #expect(posted.header("allow") == "GET, HEAD")
        let health = try await harness.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text.hasPrefix(#"{"status":"ok","generation":"#))
        #expect(health.text.contains(#","snapshotTime":""#))
    }

    @Test("with a token, every path but /healthz needs the bearer token")
    func token() async throws {
        let secret = "0123456789abcdef-token"
        let harness = try ServeHarness(token: secret)
        await harness.poll()
        let missing = try await harness.get("/v1/exchanges")
        #expect(missing.status == 401)
        #expect(missing.header("www-authenticate") == "Bearer")
        #expect((try await harness.get("/metrics", headers: ["Authorization: Bearer wrong"])).status == 401)
        #expect((try await harness.get("/v1/exchanges", headers: ["Authorization: Bearer \(secret)"])).status == 200)
        #expect((try await harness.get("/healthz")).status == 200)
    }

    @Test("/v1/history reads the history store; without one it is 404")
    func history() async throws {
        let now = Timestamp.now.millisecondsSince1970
        let store = MemoryHistoryStore(
            prices: [
                PricePoint(
                    time: Timestamp(millisecondsSince1970: now - 3_600_000), exchange: "bithumb",
                    market: Market(base: "BTC", quote: "KRW"), last: Decimal(string: "80630000.5")!,
                    baseVolume: Decimal(string: "12.25")),
                PricePoint(
                    time: Timestamp(millisecondsSince1970: now - 90_000_000), exchange: "bithumb",
                    market: Market(base: "BTC", quote: "KRW"), last: 1),
                PricePoint(
                    time: Timestamp(millisecondsSince1970: now - 3_600_000), exchange: "upbit",
                    market: Market(base: "ETH", quote: "KRW"), last: 2),
            ],
            premiums: [
                PremiumPoint(
                    time: Timestamp(millisecondsSince1970: now - 60_000), exchange: "upbit", symbol: "BTC",
                    basis: "usd", fxSource: "frankfurter", percent: Decimal(string: "2.51")!)
            ])
        let harness = try ServeHarness(history: store)
        await harness.poll()
        let answer = try await harness.get("/v1/history?symbol=btc&since=24h")
        #expect(answer.status == 200)
        let priceTime = Timestamp(millisecondsSince1970: now - 3_600_000).description
        let premiumTime = Timestamp(millisecondsSince1970: now - 60_000).description
        let body = answer.text
        #expect(body.hasPrefix(#"{"symbol":"BTC","since":""#))
        #expect(
            body.hasSuffix(
                #"","prices":[{"time":"\#(priceTime)","exchange":"bithumb","symbol":"BTC/KRW","last":"80630000.5","baseVolume":"12.25"}],"premiums":[{"time":"\#(premiumTime)","exchange":"upbit","symbol":"BTC","basis":"usd","fxSource":"frankfurter","percent":"2.51"}]}"#
                    + "\n"))
        let bad = try await harness.get("/v1/history?symbol=BTC&since=forever")
        #expect(bad.status == 400)
        #expect(
            bad.text
                == HTTPServerResponse.errorText(
                    400, "invalid since 'forever': expected a duration such as 30m, 24h or 7d, up to 366d"))
        let none = try ServeHarness()
        await none.poll()
        #expect((try await none.get("/v1/history?symbol=BTC")).status == 404)
    }
}
