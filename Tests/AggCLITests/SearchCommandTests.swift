import AggCLI
import AggCore
import AggJSON
import AggTestKit
import Foundation
import Testing

@Suite("agg search")
struct SearchCommandTests {
    private func symbols(_ run: CLIRun) throws -> [String] {
        try run.json()["results"].elements().map { "\(try $0["exchange"].string()) \(try $0["symbol"].string())" }
    }

    @Test("JSON has the documented shape, with the last price from Bithumb's ALL tickers")
    func json() async throws {
        let run = await runCLI(["search", "eth", "--exchange", "bithumb", "--offline", "-f", "json"])
        #expect(run.status == 0)
        #expect(
            run.output == """
                {"query":"eth","results":[\
                {"exchange":"bithumb","symbol":"ETH/KRW","base":"ETH","quote":"KRW","nameKo":null,"nameEn":null,"last":"3406000"},\
                {"exchange":"bithumb","symbol":"ETH/BTC","base":"ETH","quote":"BTC","nameKo":null,"nameEn":null,"last":"0.04224"}]}

                """)
    }

    @Test("symbol prefixes rank before substrings; shorter, then alphabetical; home currency first")
    func ranking() async throws {
        let run = await runCLI(["search", "ET", "-e", "bithumb", "--offline", "-f", "json"])
        #expect(
            try symbols(run) == [
                "bithumb ETC/KRW", "bithumb ETC/BTC", "bithumb ETH/KRW", "bithumb ETH/BTC", "bithumb ETKR/KRW",
                "bithumb VET/KRW", "bithumb META/KRW", "bithumb THETA/KRW",
            ])
        let quoted = await runCLI(["search", "ET", "-e", "bithumb", "--quote", "btc", "--offline", "-f", "json"])
        #expect(try symbols(quoted) == ["bithumb ETC/BTC", "bithumb ETH/BTC"])
        let limited = await runCLI(["search", "ET", "-e", "bithumb", "--limit", "3", "--offline", "-f", "json"])
        #expect(try symbols(limited) == ["bithumb ETC/KRW", "bithumb ETC/BTC", "bithumb ETH/KRW"])
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
                "nameKo":"비트코인","nameEn":"Bitcoin","last":"80500000"}]}

                """)
    }

    @Test("without --exchange every venue with a market list is searched, ranked together")
    func allVenues() async throws {
        let run = await runCLI(
            ["search", "BTC", "-f", "json"], http: try recordedBithumb(), registry: extendedRegistry())
        #expect(run.status == 0)
        #expect(try symbols(run) == ["bithumb BTC/KRW", "testnames BTC/KRW"])
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
                EXCHANGE  MARKET         LAST
                bithumb   ETH/KRW   3,406,000
                bithumb   ETH/BTC  0.04224000

                """)
    }

    @Test("no match: an empty result list, exit 0; the table says so on stderr")
    func noMatch() async throws {
        let json = await runCLI(["search", "zzzz", "-e", "bithumb", "--offline", "-f", "json"])
        #expect(json.status == 0)
        #expect(json.output == "{\"query\":\"zzzz\",\"results\":[]}\n")
        let table = await runCLI(["search", "zzzz", "-e", "bithumb", "--offline", "-f", "table"])
        #expect(table.output.isEmpty)
        #expect(table.errorLines.last == "agg: no market matches 'zzzz'")
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
        #expect(run.errorLines.count == 1)
        #expect(
            run.error.hasPrefix("agg: bithumb: no answer within 10 s from https://api.bithumb.com/public/ticker/ALL_"))
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
        #expect(results[0]["last"].value == .null)
    }
}

@Suite("agg search asks for each ticker list once")
struct SearchRequestTests {
    @Test("Bithumb's market list already carries the prices: one ALL request per quote currency")
    func bithumbRequests() async throws {
        let client = try recordedBithumb()
        let run = await runCLI(["search", "ETH", "-e", "bithumb", "-f", "json"], http: client)
        #expect(run.status == 0)
        #expect(
            client.requests.map(\.url).sorted() == [
                "https://api.bithumb.com/public/ticker/ALL_BTC", "https://api.bithumb.com/public/ticker/ALL_KRW",
            ])
        let results = try run.json()["results"].elements()
        #expect(try results[0]["symbol"].string() == "ETH/KRW")
        #expect(try results[0]["last"].string() == "3406000")
        #expect(try results[1]["last"].string() == "0.04224")
    }
}
