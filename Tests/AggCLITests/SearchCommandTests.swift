import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@testable import AggServices

@Suite("agg search")
struct SearchCommandTests {
    private func symbols(_ run: CLIRun) throws -> [String] {
        try run.json()["results"].elements().map { "\(try $0["exchange"].string()) \(try $0["symbol"].string())" }
    }

    /// Bithumb's ALL_BTC has answered 5500 since 2023 (the recordings route it so): the KRW
    /// listings still answer, and the failed request is reported as `quote` reports one.
    @Test("JSON has the documented shape: what answered, with the last price, and the failed request in errors")
    func json() async throws {
        let run = await runCLI(["search", "eth", "--exchange", "bithumb", "--offline", "-f", "json"])
        #expect(run.status == 1)
        #expect(
            run.output == """
                {"query":"eth","results":[\
                {"exchange":"bithumb","symbol":"ETH/KRW","base":"ETH","quote":"KRW","nameKo":null,"nameEn":null,"last":"3406000"}],\
                "errors":[{"exchange":"bithumb","symbol":"ALL/BTC","kind":"venue","code":"5500","message":"입력값을 확인해 주세요."}]}

                """)
        #expect(
            run.errorLines.last
                == "agg: bithumb ALL/BTC: error 5500: 입력값을 확인해 주세요. [English: please check the input]")
    }

    @Test("ALL_BTC answering an HTML 404 instead, and the v1 API too: the KRW listings still answer, exit 1")
    func allBTCNotFound() async throws {
        let krw = try Fixtures.bytes("bithumb/ticker_ALL_KRW.json")
        let client = ScriptedHTTPClient { request in
            request.url.hasSuffix("/ALL_BTC") || request.url.contains("/v1/")
                ? HTTPResponse(status: 404, headers: [], body: Array("<html>Not Found</html>".utf8), url: request.url)
                : HTTPResponse(status: 200, headers: [], body: krw, url: request.url)
        }
        let run = await runCLI(["search", "XRP", "-e", "bithumb", "-f", "table"], http: client)
        #expect(run.status == 1)
        #expect(
            run.output == """
                EXCHANGE  MARKET    LAST
                bithumb   XRP/KRW  790.4

                """)
        #expect(
            run.errorLines == ["agg: bithumb ALL/BTC: HTTP 404 from https://api.bithumb.com/public/ticker/ALL_BTC"])
        #expect(
            client.requests.map(\.url).sorted() == [
                "https://api.bithumb.com/public/ticker/ALL_BTC", "https://api.bithumb.com/public/ticker/ALL_KRW",
                "https://api.bithumb.com/v1/market/all",
            ])
    }

    @Test("when every listing request fails: no results, every failure in errors, exit 1")
    func everyRequestFails() async throws {
        let client = ScriptedHTTPClient(body: #"{"status":"5600","message":"점검 중"}"#)
        let run = await runCLI(["search", "ETH", "-e", "bithumb", "-f", "json"], http: client)
        #expect(run.status == 1)
        #expect(
            run.output == """
                {"query":"ETH","results":[],"errors":[\
                {"exchange":"bithumb","symbol":"ALL/KRW","kind":"venue","code":"5600","message":"점검 중"},\
                {"exchange":"bithumb","symbol":"ALL/BTC","kind":"venue","code":"5600","message":"점검 중"}]}

                """)
        #expect(run.errorLines == ["agg: bithumb ALL/KRW: error 5600: 점검 중", "agg: bithumb ALL/BTC: error 5600: 점검 중"])
    }

    @Test("symbol prefixes rank before substrings; shorter, then alphabetical; home currency first")
    func ranking() async throws {
        let run = await runCLI(["search", "ET", "-e", "bithumb", "--offline", "-f", "json"])
        #expect(
            try symbols(run) == [
                "bithumb ETC/KRW", "bithumb ETH/KRW", "bithumb ETKR/KRW", "bithumb VET/KRW", "bithumb META/KRW",
                "bithumb THETA/KRW",
            ])
        let quoted = await runCLI(
            ["search", "ET", "-e", "testnames", "--quote", "btc", "-f", "json"], registry: extendedRegistry())
        #expect(try symbols(quoted) == ["testnames ETH/BTC"])
        let limited = await runCLI(["search", "ET", "-e", "bithumb", "--limit", "2", "--offline", "-f", "json"])
        #expect(try symbols(limited) == ["bithumb ETC/KRW", "bithumb ETH/KRW"])
    }

    @Test(
        "names published by a venue are searched in Korean and English",
        arguments: [
            ("비트코인", ["BTC/KRW", "BCH/KRW", "BSV/KRW"]),
            ("bitcoin", ["BTC/KRW", "BCH/KRW", "BSV/KRW"]),
            ("BITCOIN CASH", ["BCH/KRW"]),
            ("bitcoincash", ["BCH/KRW"]),
            ("이더", ["ETC/KRW", "ETH/KRW", "ETH/BTC"]),
            ("classic", ["ETC/KRW"]),
            ("\u{1107}\u{1175}\u{1110}\u{1173}", ["BCH/KRW", "BSV/KRW", "BTC/KRW"]),
        ])
    func names(query: String, expected: [String]) async throws {
        let run = await runCLI(["search", query, "-e", "testnames", "-f", "json"], registry: extendedRegistry())
        #expect(run.status == 0)
        #expect(try symbols(run) == expected.map { "testnames " + $0 })
    }

    @Test("a named result carries both names and the venue's last price")
    func namedResult() async throws {
        let run = await runCLI(
            ["search", "비트코인", "-e", "testnames", "-n", "1", "-f", "json"], registry: extendedRegistry())
        #expect(
            run.output == """
                {"query":"비트코인","results":[{"exchange":"testnames","symbol":"BTC/KRW","base":"BTC","quote":"KRW",\
                "nameKo":"비트코인","nameEn":"Bitcoin","last":"80500000"}],"errors":[]}

                """)
    }

    @Test("without --exchange every venue with a market list is searched, ranked together")
    func allVenues() async throws {
        let run = await runCLI(
            ["search", "BTC", "-f", "json"], http: try recordedBithumb(), registry: extendedRegistry())
        #expect(run.status == 1)
        #expect(try symbols(run) == ["bithumb BTC/KRW", "testnames BTC/KRW"])
        #expect(try run.json()["errors"].elements().map { try $0["symbol"].string() } == ["ALL/BTC"])
    }

    @Test("the table shows name columns only when a venue publishes names, Korean aligned")
    func table() async throws {
        let named = await runCLI(["search", "bitcoin", "-e", "testnames", "-f", "table"], registry: extendedRegistry())
        #expect(
            named.output == """
                EXCHANGE   MARKET   NAME (KO)         NAME (EN)           LAST
                testnames  BTC/KRW  비트코인          Bitcoin       80,500,000
                testnames  BCH/KRW  비트코인캐시      Bitcoin Cash     462,000
                testnames  BSV/KRW  비트코인에스브이  Bitcoin SV        61,000

                """)
        let plain = await runCLI(["search", "ETH", "-e", "bithumb", "--offline", "-f", "table"])
        #expect(
            plain.output == """
                EXCHANGE  MARKET        LAST
                bithumb   ETH/KRW  3,406,000

                """)
    }

    @Test("no match: an empty result list, exit 0; the table says so on stderr")
    func noMatch() async throws {
        let json = await runCLI(["search", "zzzz", "-e", "testnames", "-f", "json"], registry: extendedRegistry())
        #expect(json.status == 0)
        #expect(json.output == "{\"query\":\"zzzz\",\"results\":[],\"errors\":[]}\n")
        let table = await runCLI(["search", "zzzz", "-e", "testnames", "-f", "table"], registry: extendedRegistry())
        #expect(table.status == 0)
        #expect(table.output.isEmpty)
        #expect(table.errorLines == ["agg: no market matches 'zzzz'"])
    }

    @Test(
        "the query is validated and never sent",
        arguments: [
            ("", "the search query is empty"), ("   ", "the search query is empty"),
            ("BT\u{07}C", "control character (U+0007)"), ("a\nb", "control character (U+000A)"),
            ("e\u{200B}th", "control character (U+200B)"),
            (String(repeating: "a", count: 51), "longer than 50 characters"),
        ])
    func badQueries(query: String, message: String) async throws {
        let client = ScriptedHTTPClient(body: "{}")
        let run = await runCLI(["search", query, "-e", "bithumb"], http: client)
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1)
        #expect(run.error.contains(message))
        #expect(client.requests.isEmpty)
    }

    @Test("a named venue without a market list is a usage error naming it")
    func unsupported() async throws {
        let run = await runCLI(["search", "BTC", "-e", "testbare"], registry: extendedRegistry())
        #expect(run.status == 64)
        #expect(run.errorLines == ["agg: testbare does not provide a market list; see 'agg exchanges'"])
    }

    @Test("a failing venue is reported and exits 1; the others still answer")
    func partialFailure() async throws {
        let client = ScriptedHTTPClient { request in
            throw TransportError.timeout(url: request.url, seconds: 10)
        }
        let run = await runCLI(["search", "BTC", "-f", "json"], http: client, registry: extendedRegistry())
        #expect(run.status == 1)
        #expect(try symbols(run) == ["testnames BTC/KRW"])
        #expect(
            run.errorLines
                == ["KRW", "BTC"].map {
                    "agg: bithumb ALL/\($0): no answer within 10 s from https://api.bithumb.com/public/ticker/ALL_\($0)"
                })
    }

    @Test("a venue whose whole list failed: an error without a symbol, its own line")
    func wholeListFails() async throws {
        let client = ScriptedHTTPClient { request in throw TransportError.timeout(url: request.url, seconds: 10) }
        let run = await runCLI(["search", "BTC", "-e", "upbit", "-f", "json"], http: client)
        #expect(run.status == 1)
        #expect(
            run.output == """
                {"query":"BTC","results":[],"errors":[{"exchange":"upbit","kind":"timeout","code":null,\
                "message":"no answer within 10 s from https://api.upbit.com/v1/market/all"}]}

                """)
        #expect(run.errorLines == ["agg: upbit: no answer within 10 s from https://api.upbit.com/v1/market/all"])
    }

    @Test("MarketSearch.match tells each kind apart")
    func matchKinds() {
        let listing = MarketListing(
            exchange: "x", market: Market(base: "ETH", quote: "KRW"), venueSymbol: "KRW-ETH", koreanName: "이더리움",
            englishName: "Ethereum")
        #expect(MarketSearch.match(listing, query: "eth") == .exactSymbol)
        #expect(MarketSearch.match(listing, query: "ethereum") == .exactName)
        #expect(MarketSearch.match(listing, query: "e") == .symbolPrefix)
        #expect(MarketSearch.match(listing, query: "ether") == .namePrefix)
        #expect(MarketSearch.match(listing, query: "th") == .symbolSubstring)
        #expect(MarketSearch.match(listing, query: "리움") == .nameSubstring)
        #expect(MarketSearch.match(listing, query: "eth/krw") == .exactSymbol)
        #expect(MarketSearch.match(listing, query: "eth/btc") == nil)
        #expect(MarketSearch.match(listing, query: "bitcoin") == nil)
    }
}

@Suite("agg search on Upbit's recorded market list")
struct UpbitNameSearchTests {
    @Test("비트코인 and bitcoin both find BTC and BCH by name", arguments: ["비트코인", "bitcoin", "BITCOIN"])
    func names(query: String) async throws {
        let run = await runCLI(["search", query, "-e", "upbit", "--offline", "-f", "json"])
        #expect(run.status == 0)
        let results = try run.json()["results"].elements()
        let bases = Set(try results.map { try $0["base"].string() })
        #expect(bases.isSuperset(of: ["BTC", "BCH"]))
        #expect(try results[0]["symbol"].string() == "BTC/KRW")
        #expect(try results[0]["nameKo"].string() == "비트코인")
        #expect(try results[0]["nameEn"].string() == "Bitcoin")
        // Upbit's /v1/ticker/all gives the prices along with the names.
        #expect(try results[0]["last"].string() == "80651000")
    }
}

@Suite("agg search asks for each ticker list once")
struct SearchRequestTests {
    @Test("Bithumb's market list already carries the prices: one ALL request per quote currency, none again")
    func bithumbRequests() async throws {
        let client = try recordedBithumb()
        let run = await runCLI(["search", "ETH", "-e", "bithumb", "-f", "json"], http: client)
        #expect(run.status == 1)
        #expect(
            client.requests.map(\.url).sorted() == [
                "https://api.bithumb.com/public/ticker/ALL_BTC", "https://api.bithumb.com/public/ticker/ALL_KRW",
            ])
        let results = try run.json()["results"].elements()
        #expect(results.count == 1)
        #expect(try results[0]["symbol"].string() == "ETH/KRW")
        #expect(try results[0]["last"].string() == "3406000")
    }

    @Test("--quote asks Bithumb only for that currency's list: ALL_BTC's failure does not matter to KRW")
    func quoteFilterAsksOnce() async throws {
        let client = try recordedBithumb()
        let run = await runCLI(["search", "ETH", "-e", "bithumb", "-q", "KRW", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(client.requests.map(\.url) == ["https://api.bithumb.com/public/ticker/ALL_KRW"])
        #expect(try run.json()["results"].elements().map { try $0["symbol"].string() } == ["ETH/KRW"])
    }
}
