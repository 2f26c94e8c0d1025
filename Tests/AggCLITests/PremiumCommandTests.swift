import AggCore
import AggJSON
import AggStore
import Foundation
import Testing

@testable import AggCLI

/// A venue answering its all-tickers request from a fixed table (sample data at the fixtures'
/// moment), so that the board's command is tested apart from any real venue's decoding.
private struct BoardVenue: Sendable {
    var descriptor: AdapterDescriptor
    /// base → (last, quote volume, base volume)
    var tickers: [String: (String, String?, String?)]
}

private func boardVenue(_ id: String, _ quote: String, _ tickers: [String: (String, String?, String?)])
    -> BoardVenue
{
    BoardVenue(
        descriptor: AdapterDescriptor(
            id: id, displayName: id, country: quote == "KRW" ? "KR" : "US", homeCurrency: quote,
            quoteCurrencies: [quote],
            capabilities: id == "kra" ? [.ticker, .allTickers, .transferStatus] : [.ticker, .allTickers],
            requestsPerSecond: 10,
            defaultBaseURL: "https://\(id).invalid"),
        tickers: tickers)
}

private let boardVenues: [String: BoardVenue] = [
    "kra": boardVenue(
        "kra", "KRW",
        [
            "BTC": ("80651000", "311604512879.45103", nil), "USDT": ("1374", nil, nil),
            "ETH": ("3407000", "148703652310.70581", nil), "ABC": ("1000", nil, nil), "ONLYKR": ("5", nil, nil),
        ]),
    "krb": boardVenue(
        "krb", "KRW",
        ["BTC": ("80630000", "109282011238.50126", nil), "USDT": ("1376", nil, nil), "ABC": ("1000", nil, nil)]),
    "gla": boardVenue(
        "gla", "USDT",
        ["BTC": ("58412.07", "1802716532.85710318", nil), "ETH": ("2478.31", nil, nil), "ABC": ("0.7", nil, nil)]),
    "glb": boardVenue(
        "glb", "USD",
        ["BTC": ("58431.29", nil, "14871.30945112"), "ETH": ("2479.05", nil, nil), "ABC": ("5.0", nil, nil)]),
]

/// 2024-08-08T08:12:15Z.
private let boardNow = Timestamp(millisecondsSince1970: 1_723_104_735_000)

/// A venue answering from its fixed table. Registrations carry their own descriptor, so every
/// test venue is an instance of this one type.
private struct TableVenue: VenueAdapter {
    let venue: BoardVenue

    var descriptor: AdapterDescriptor { venue.descriptor }

    /// `kra` publishes transfer status: ABC's withdrawals are closed on its only network, BTC's
    /// are open on one of two.
    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        [
            TransferStatus(exchange: descriptor.id, coin: "ABC", network: "ABC", deposit: .open, withdraw: .closed),
            TransferStatus(exchange: descriptor.id, coin: "BTC", network: "BTC", deposit: .open, withdraw: .open),
            TransferStatus(exchange: descriptor.id, coin: "BTC", network: "LN", deposit: .closed, withdraw: .closed),
        ]
    }

    func quote(for market: Market) async throws(AggError) -> Quote {
        guard market.quote == descriptor.homeCurrency,
            let quote = tickers.first(where: { $0.market == market })
        else { throw .notListed(venue: descriptor.id, market: market, code: "", message: "") }
        return quote
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        BulkAnswer(values: tickers)
    }

    /// The table's tickers, in the venue's home currency.
    private var tickers: [Quote] {
        venue.tickers.map { base, values in
            Quote(
                exchange: descriptor.id, market: Market(base: base, quote: descriptor.homeCurrency),
                last: Decimal(string: values.0) ?? 0, baseVolume: values.2.flatMap { Decimal(string: $0) },
                quoteVolume: values.1.flatMap { Decimal(string: $0) })
        }
    }
}

/// An FX venue giving USD→KRW `rate` as of `ageMilliseconds` before the board.
private struct FixedFX: VenueAdapter {
    let descriptor: AdapterDescriptor
    let rate: String
    let ageMilliseconds: Int64
    /// Counts the requests, when given.
    var calls: CallCounter?

    init(id: String, rate: String, ageMilliseconds: Int64) {
        descriptor = AdapterDescriptor(
            id: id, displayName: id, country: "ZZ", homeCurrency: "USD", quoteCurrencies: [],
            capabilities: [.fxRates], requestsPerSecond: 1, defaultBaseURL: "https://\(id).invalid",
            attribution: "Rates by \(id)")
        self.rate = rate
        self.ageMilliseconds = ageMilliseconds
    }

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        _ = calls?.next()
        return RateTable(
            source: descriptor.id, base: request.base, rates: ["USD": 1, "KRW": Decimal(string: rate) ?? 0],
            asOf: Timestamp(millisecondsSince1970: boardNow.millisecondsSince1970 - ageMilliseconds),
            nextUpdate: nil)
    }
}

/// FX venues: `fxa` gives USD→KRW 1371.55 as of 16 h before the board; `fxb` 1375.2, 100 days
/// old.
private let boardFX = [
    FixedFX(id: "fxa", rate: "1371.55", ageMilliseconds: 16 * 3_600_000),
    FixedFX(id: "fxb", rate: "1375.2", ageMilliseconds: 100 * 86_400_000),
]

/// More coins for the ranking tests, by venue: HHH is another coin on kra (50,000 KRW against
/// about 1,008 elsewhere, +4,859.88 %: an outlier); EEE (krb only) leads FFF (kra only) on the FX
/// basis (+0.30 % against +0.25 %) and trails it on the USDT basis (−0.02 % against +0.07 %),
/// since krb's USDT costs more than kra's.
private let rankingTickers: [String: [String: (String, String?, String?)]] = [
    "kra": ["HHH": ("50000", nil, nil), "FFF": ("1375.0", nil, nil)],
    "krb": ["HHH": ("1000", nil, nil), "EEE": ("1375.7", nil, nil)],
    "gla": ["HHH": ("0.73", nil, nil), "EEE": ("1", nil, nil), "FFF": ("1", nil, nil)],
    "glb": ["HHH": ("0.74", nil, nil), "EEE": ("1", nil, nil), "FFF": ("1", nil, nil)],
]

private func boardRegistry(
    fxCalls: CallCounter? = nil, extra: [String: [String: (String, String?, String?)]] = [:]
) -> AdapterRegistry {
    AdapterRegistry(
        boardVenues.values.map { venue in
            var venue = venue
            venue.tickers.merge(extra[venue.descriptor.id] ?? [:]) { _, added in added }
            return AdapterRegistration(descriptor: venue.descriptor) { [venue] _ in TableVenue(venue: venue) }
        }
            + boardFX.map { fx in
                var counted = fx
                counted.calls = fxCalls
                return AdapterRegistration(descriptor: fx.descriptor) { [counted] _ in counted }
            })
}

private func runBoard(
    _ arguments: [String], fxCalls: CallCounter? = nil, environment: [String: String] = [:],
    extra: [String: [String: (String, String?, String?)]] = [:], width: Int = 200
)
    async -> CLIRun
{
    await runCLI(
        arguments, environment: environment, width: width, registry: boardRegistry(fxCalls: fxCalls, extra: extra),
        now: boardNow)
}

@Suite("agg premium")
struct PremiumCommandTests {
    @Test("JSON: premiums on both bases against hand-computed values, the FX used, the tether premium")
    func json() async throws {
        let run = await runBoard(["premium", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "")
        let json = try run.json()
        #expect(try json["fx"]["source"].string() == "fxa")
        #expect(try json["fx"]["rate"].string() == "1371.55")
        #expect(try json["fx"]["asOf"].string() == "2024-08-07T16:12:15Z")
        #expect(try json["fx"]["attribution"].string() == "Rates by fxa")
        #expect(try json["usdtPremiumPercent"].string() == "0.25")
        let rows = try json["rows"].elements()
        // By premium: ABC (4.16 %), BTC (0.65 %), ETH (0.22 %); ONLYKR is listed in Korea only.
        #expect(try rows.map { try $0["base"].string() } == ["ABC", "BTC", "ETH"])
        let btc = rows[1]
        #expect(try btc["reference"]["price"].string() == "80128255.204")
        #expect(try btc["reference"]["priceUSD"].string() == "58421.68")
        #expect(try btc["volumeConverted"].string() == "420886524117.95229")
        let venues = try btc["venues"].elements()
        #expect(try venues.map { try $0["exchange"].string() } == ["kra", "krb", "gla", "glb"])
        #expect(try venues.map { try $0["premiumPercent"].string() } == ["0.65", "0.63", "-0.02", "0.02"])
        #expect(try venues[0]["usdtPremiumPercent"].string() == "0.47")
        #expect(try venues[1]["usdtPremiumPercent"].string() == "0.30")
        #expect(try venues.map { try $0["transfer"].string() } == ["open", "unknown", "unknown", "unknown"])
        #expect(
            try rows[0]["venues"].elements().map { try $0["transfer"].string() }.prefix(2) == ["closed", "unknown"])
        #expect(try rows[2]["venues"][0]["transfer"].string() == "unknown")
        let abc = rows[0]
        #expect(try abc["flags"].elements().map { try $0.string() } == ["priceMismatch"])
        #expect(try abc["venues"][3]["outlier"].bool() == true)
        #expect(try rows[2]["venues"][0]["premiumPercent"].string() == "0.22")
        #expect(try rows[2]["venues"][0]["usdtPremiumPercent"].string() == "0.04")
        #expect(try json["errors"].elements().isEmpty)
    }

    @Test("table: the FX line, the tether line, one row per local venue; symbols, --sort, --top")
    func table() async {
        let run = await runBoard(["premium", "BTC", "ETH", "--sort", "symbol", "-f", "table", "--top", "2"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(2) == [
                "FX: USD→KRW 1,371.55 from fxa, as of 2024-08-07T16:12:15Z (16h ago); Rates by fxa",
                "Tether premium: +0.25% (USDT/KRW: kra +0.18%, krb +0.32%)",
            ])
        #expect(
            lines.dropFirst(3) == [
                "COIN  EXCHANGE  LAST (KRW)  GLOBAL (KRW)  PREMIUM  VS BTC  USDT PREM       VOLUME 24H   AGE  NOTE",
                "BTC   kra       80,651,000    80,128,255   +0.65%       -     +0.47%  311,604,512,879  0.0s",
                "      krb       80,630,000                 +0.63%       -     +0.30%  109,282,011,239  0.0s",
                // premVsBTC: ETH's +0.22% on kra less BTC's +0.65% there.
                "ETH   kra        3,407,000     3,399,634   +0.22%  -0.43%     +0.04%  148,703,652,311  0.0s",
            ])
    }

    @Test("--min-volume hides illiquid coins; CSV has one row per coin and venue with a time column")
    func csv() async {
        let run = await runBoard(["premium", "--min-volume", "200000000000", "-f", "csv"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(
            lines[0]
                == "time,base,exchange,symbol,last,lastConverted,premiumPercent,usdtPremiumPercent,volumeConverted,local,outlier,reference,flags,receivedAt,ageSeconds,stale"
        )
        #expect(
            lines[1]
                == "2024-08-08T08:12:15.000Z,BTC,kra,BTC/KRW,80651000,80651000,0.65,0.47,311604512879.45103,true,false,80128255.204,,2024-08-08T08:12:15.000Z,0.000,false"
        )
    }

    @Test("an FX source older than --max-fx-age is refused with why, exit 1; a bad option is a usage error")
    func staleFX() async {
        let run = await runBoard(["premium", "--fx", "fxb", "-f", "json"])
        #expect(run.status == 1)
        #expect(
            run.errorLines == [
                "agg: no usable FX rate: fxb's rate is from 2024-04-30T08:12:15.000Z, 2400 h old, older than the 72 h allowed (--max-fx-age)"
            ])
        let allowed = await runBoard(["premium", "--fx", "fxb", "--max-fx-age", "101d", "-f", "json"])
        #expect(allowed.status == 0, "\(allowed.error)")
        for (arguments, message) in [
            (["--max-fx-age", "soon"], "invalid --max-fx-age 'soon': expected a duration such as 3d, 12h or 3600"),
            (["--min-volume", "lots"], "invalid --min-volume 'lots': expected an amount such as 1000000000"),
            (["--top", "0"], "invalid --top '0': expected a whole number from 1 to 10000"),
            (["--fx", "kra"], "kra is not an FX source"),
            (["-e", "kra"], "the board needs a venue quoting in KRW and a global one; asked: kra"),
        ] {
            let bad = await runBoard(["premium"] + arguments)
            #expect(bad.status == 64)
            #expect(bad.errorLines == ["agg: " + message])
        }
    }

    @Test("a symbol not on both sides is named on stderr, exit 1")
    func missingSymbol() async {
        let run = await runBoard(["premium", "BTC", "ONLYKR", "-f", "csv"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["agg: ONLYKR is not listed on both a local and a global venue"])
        #expect(run.output.split(separator: "\n").count == 5)
    }

    @Test("--watch in a pipe: one CSV header, rows each refresh; FX sources asked once while their rate is fresh")
    func watchCSV() async {
        let calls = CallCounter()
        let run = await runBoard(
            ["premium", "BTC", "--watch", "--count", "2", "--interval", "1", "-f", "csv"], fxCalls: calls)
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + 2 * 4)
        #expect(lines.filter { $0.hasPrefix("time,") }.count == 1)
        #expect(lines[1] == lines[5])
        #expect(lines[1].hasPrefix("2024-08-08T08:12:15.000Z,BTC,kra,BTC/KRW,80651000,80651000,0.65,0.47,"))
        // Two FX sources, asked on the first refresh only.
        #expect(calls.next() == 3)
    }

    @Test("--watch: one JSON line a refresh; a too-short --interval and --count without a number are usage errors")
    func watchJSON() async throws {
        let run = await runBoard(["premium", "--watch", "-c", "2", "-i", "1", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        for line in lines {
            let json = JSONCursor(try JSONParser.parse(line))
            #expect(try json["rows"].elements().map { try $0["base"].string() } == ["ABC", "BTC", "ETH"])
        }
        let short = await runBoard(["premium", "--watch", "--interval", "0.5"])
        #expect(short.status == 64)
        #expect(
            short.errorLines == ["agg: invalid --interval '0.5': expected seconds, such as 10 or 1m, from 1s to 1d"])
    }

    @Test("--watch on a terminal: the board redrawn in place, the cursor hidden, then shown again")
    func watchTerminal() async {
        let run = await runCLI(
            ["premium", "BTC", "--watch", "-c", "2", "-i", "1", "--basis", "fx"], terminal: true,
            registry: boardRegistry(), now: boardNow)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("\u{1B}[?25l"))
        #expect(run.output.hasSuffix("\u{1B}[?25h"))
        #expect(run.output.components(separatedBy: "every 1 s · 2024-08-08 08:12:15 UTC · Ctrl-C to stop").count == 3)
        // The second refresh moves back over the first: the header, the FX, tether and global
        // price lines, the table's header and two rows (kra, krb).
        #expect(run.output.contains("\u{1B}[7A\r\u{1B}[J"))
    }

    @Test("rates --source all: every FX source and each KRW venue's USDT against the FX median")
    func rateSources() async throws {
        let run = await runBoard(["rates", "USD", "--to", "KRW", "--source", "all", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(try json["median"].string() == "1373.375")
        let sources = try json["sources"].elements()
        #expect(try sources.map { try $0["source"].string() } == ["fxa", "fxb", "kra USDT/KRW", "krb USDT/KRW"])
        #expect(try sources.map { try $0["kind"].string() } == ["fx", "fx", "market", "market"])
        #expect(try sources.map { try $0["deviationPercent"].string() } == ["-0.13", "0.13", "0.05", "0.19"])
        #expect(try sources[0]["asOf"].string() == "2024-08-07T16:12:15.000Z")
        #expect(try sources[0]["attribution"].string() == "Rates by fxa")

        let table = await runBoard(["rates", "USD", "--to", "KRW", "--source", "all", "-f", "table"])
        #expect(
            table.output.split(separator: "\n").map(String.init) == [
                "SOURCE        KIND     USD→KRW  AS OF (UTC)               AGE  VS MEDIAN",
                "fxa           fx      1,371.55  2024-08-07 16:12:15   16h ago     -0.13%",
                "fxb           fx       1,375.2  2024-04-30 08:12:15  100d ago     +0.13%",
                "kra USDT/KRW  market     1,374  -                           -     +0.05%",
                "krb USDT/KRW  market     1,376  -                           -     +0.19%",
                "median of 2 FX sources: 1,373.375",
                "Rates by fxa; Rates by fxb",
            ])
        let two = await runBoard(["rates", "--to", "KRW,JPY", "--source", "all"])
        #expect(two.status == 64)
        #expect(
            two.errorLines == ["agg: --source all compares one rate: name one currency with --to, such as --to KRW"])
    }

    @Test("table: a coin whose transfers are closed on a venue is marked, with its outlier")
    func transferMarked() async {
        let run = await runBoard(["premium", "ABC", "-f", "table", "--basis", "fx"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[4].hasPrefix("ABC   kra"))
        #expect(lines[4].hasSuffix("outlier: glb; transfers closed: kra"))
    }

    @Test("compare --fx SOURCE converts at that source's rate, names it, and asks no other FX source")
    func compareNamedFX() async throws {
        let calls = CallCounter()
        let run = await runBoard(
            ["compare", "BTC", "-e", "kra,gla,glb", "--fx", "fxb", "--max-fx-age", "101d", "-f", "json"],
            fxCalls: calls)
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(
            json["fx"][0].value?.serialized()
                == #"{"from":"USD","to":"KRW","rate":"1375.2","source":"fxb","asOf":"2024-04-30T08:12:15Z","attribution":"Rates by fxb"}"#
        )
        // 58412.07 × 1375.2 and 58431.29 × 1375.2; their mean is the reference.
        let venues = try json["venues"].elements()
        #expect(try venues.map { try $0["lastConverted"].string() } == ["80651000", "80328278.664", "80354710.008"])
        #expect(try json["reference"]["price"].string() == "80341494.336")
        #expect(try venues.map { try $0["premiumPercent"].string() } == ["0.39", "-0.02", "0.02"])
        #expect(calls.next() == 2)

        let table = await runBoard(
            ["compare", "BTC", "-e", "kra,gla,glb", "--fx", "fxb", "--max-fx-age", "101d", "-f", "table"])
        #expect(
            table.output.split(separator: "\n").contains(
                "FX: USD→KRW 1,375.2 from fxb (Rates by fxb), as of 2024-04-30 08:12:15 UTC"))
    }

    @Test("compare without --fx converts at the freshest FX source's rate, both asked")
    func compareFreshestFX() async throws {
        let calls = CallCounter()
        let run = await runBoard(
            ["compare", "BTC", "-e", "kra,gla,glb", "--max-fx-age", "101d", "-f", "json"], fxCalls: calls)
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(try json["fx"][0]["source"].string() == "fxa")
        #expect(try json["fx"][0]["rate"].string() == "1371.55")
        #expect(try json["reference"]["price"].string() == "80128255.204")
        #expect(try json["venues"].elements().map { try $0["premiumPercent"].string() } == ["0.65", "-0.02", "0.02"])
        #expect(calls.next() == 3)
    }

    @Test("compare refuses an FX rate older than --max-fx-age as premium does: why, exit 1; bad options exit 64")
    func compareStaleFX() async throws {
        let run = await runBoard(["compare", "BTC", "-e", "kra,gla,glb", "--fx", "fxb", "-f", "json"])
        #expect(run.status == 1)
        let refusal =
            "no usable FX rate: fxb's rate is from 2024-04-30T08:12:15.000Z, 2400 h old, older than the 72 h allowed (--max-fx-age)"
        let message = "cannot convert to KRW: no USD→KRW rate (\(refusal))"
        #expect(run.errorLines == ["agg: gla BTC/USDT: \(message)", "agg: glb BTC/USD: \(message)"])
        let json = try run.json()
        #expect(try json["fx"].elements().isEmpty)
        #expect(json["venues"][1]["lastConverted"].value == .null)
        #expect(try json["errors"].elements().map { try $0["message"].string() } == [message, message])
        #expect(try json["venues"][0]["lastConverted"].string() == "80651000")

        let shorter = await runBoard(["compare", "BTC", "-e", "kra,gla", "--max-fx-age", "12h", "-f", "json"])
        #expect(shorter.status == 1)
        #expect(
            shorter.errorLines == [
                "agg: gla BTC/USDT: cannot convert to KRW: no USD→KRW rate (no usable FX rate: fxa's rate is from "
                    + "2024-08-07T16:12:15.000Z, 16 h old, older than the 12 h allowed (--max-fx-age))"
            ])
        for (arguments, message) in [
            (["--max-fx-age", "soon"], "invalid --max-fx-age 'soon': expected a duration such as 3d, 12h or 3600"),
            (["--max-fx-age", "0"], "invalid --max-fx-age '0': expected a duration such as 3d, 12h or 3600"),
            (["--fx", "kra"], "kra is not an FX source"),
        ] {
            let bad = await runBoard(["compare", "BTC"] + arguments)
            #expect(bad.status == 64)
            #expect(bad.errorLines == ["agg: " + message])
        }
    }

    @Test("with recorded premiums: the current premium's percentile over the last 7 days, only where history exists")
    func percentileOverSevenDays() async throws {
        try await withTemporaryHome { home in
            let store = try Store.open(path: home + "/agg.sqlite")
            func point(hoursAgo: Int64, _ percent: String, basis: String = "usd") -> PremiumPoint {
                PremiumPoint(
                    time: Timestamp(millisecondsSince1970: boardNow.millisecondsSince1970 - hoursAgo * 3_600_000),
                    exchange: "kra", symbol: "BTC", basis: basis, fxSource: "fxa",
                    percent: Decimal(string: percent) ?? 0)
            }
            // kra's BTC premium now is 0.65 %: at or above three of the five recorded in the window.
            let recorded = [
                point(hoursAgo: 1, "0.10"), point(hoursAgo: 20, "0.50"), point(hoursAgo: 40, "0.65"),
                point(hoursAgo: 60, "0.70"), point(hoursAgo: 160, "0.90"),
                // Outside the window, and on the other basis: neither counts.
                point(hoursAgo: 7 * 24 + 1, "0.01"), point(hoursAgo: 2, "0.01", basis: "usdt"),
            ]
            for item in recorded { try await store.record(RecordedTick(time: item.time, premiums: [item])) }

            let run = await runBoard(["premium", "BTC", "-f", "json"], environment: ["AGG_HOME": home])
            #expect(run.status == 0, "\(run.error)")
            let venues = try run.json()["rows"][0]["venues"].elements()
            #expect(try venues.map { try $0["premiumPercentile7d"].optionalString() } == ["60", nil, nil, nil])

            let table = await runBoard(["premium", "BTC", "-f", "table"], environment: ["AGG_HOME": home])
            let lines = table.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.contains { $0.first == "BTC" && $0.contains("+0.65%") && $0.contains("60") })
            #expect(table.output.contains("7D PCTL"))
        }
        // Without history there is neither a column nor a field.
        let plain = await runBoard(["premium", "BTC", "-f", "json"])
        #expect(try !plain.json()["rows"][0]["venues"][0]["premiumPercentile7d"].isPresent)
        let table = await runBoard(["premium", "BTC", "-f", "table"])
        #expect(!table.output.contains("7D PCTL"))
    }
}

@Suite("agg premium: what ranks and what alerts")
struct PremiumRankingTests {
    @Test("an outlier (most likely another coin) is shown and marked but is not its row's sort key")
    func outlierDoesNotRank() async throws {
        let run = await runBoard(["premium", "--top", "1", "-f", "json"], extra: rankingTickers)
        #expect(run.status == 0, "\(run.error)")
        let rows = try run.json()["rows"].elements()
        #expect(try rows.map { try $0["base"].string() } == ["ABC"])

        let all = await runBoard(["premium", "-f", "json"], extra: rankingTickers)
        let json = try all.json()
        #expect(
            try json["rows"].elements().map { try $0["base"].string() } == ["ABC", "BTC", "EEE", "FFF", "ETH", "HHH"])
        let hhh = json["rows"][5]
        #expect(
            try hhh["venues"].elements().map { try $0["premiumPercent"].string() } == [
                "4859.88", "-0.80", "-0.68", "0.68",
            ])
        #expect(try hhh["venues"].elements().map { try $0["outlier"].bool() } == [true, false, false, false])
        #expect(try hhh["flags"].elements().map { try $0.string() } == ["priceMismatch"])
    }

    @Test("--basis usdt orders by the USDT premium it shows; fx and both by the FX premium")
    func basisOrders() async throws {
        let usdt = await runBoard(
            ["premium", "EEE", "FFF", "--basis", "usdt", "-f", "table"], extra: rankingTickers)
        #expect(usdt.status == 0, "\(usdt.error)")
        #expect(
            Array(usdt.output.split(separator: "\n").map(String.init).suffix(2)) == [
                "FFF   kra            1,375         1,372     +0.07%           -  0.0s",
                "EEE   krb          1,375.7         1,372     -0.02%           -  0.0s",
            ])
        for basis in ["fx", "both"] {
            let run = await runBoard(["premium", "EEE", "FFF", "--basis", basis, "-f", "json"], extra: rankingTickers)
            let rows = try run.json()["rows"].elements()
            #expect(try rows.map { try $0["base"].string() } == ["EEE", "FFF"])
            #expect(try rows.map { try $0["venues"][0]["premiumPercent"].string() } == ["0.30", "0.25"])
            #expect(try rows.map { try $0["venues"][0]["usdtPremiumPercent"].string() } == ["-0.02", "0.07"])
        }
        let json = await runBoard(["premium", "EEE", "FFF", "--basis", "usdt", "-f", "json"], extra: rankingTickers)
        #expect(try json.json()["rows"].elements().map { try $0["base"].string() } == ["FFF", "EEE"])
    }

    @Test("an outlier's premium fires no alert; the coin's other venues still do")
    func outlierDoesNotAlert() async throws {
        let run = await runBoard(
            [
                "premium", "HHH", "--watch", "-c", "1", "-i", "1", "-f", "json", "--alert", "HHH premium > 10%",
                "--alert", "HHH usdtPremium > 10%", "--alert", "krb:HHH premium < 0%",
            ], extra: rankingTickers)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.errorLines == ["agg: alert: krb HHH premium -0.8% (rule krb:HHH premium < 0%)"])
    }
}

@Suite("agg premium: output shape and options")
struct PremiumOutputTests {
    @Test("premVsBTC is measured against BTC's premium on the same venue even when BTC's row is not shown")
    func versusBTCWithoutBTCRow() async throws {
        let run = await runBoard(["premium", "ETH", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(try json["rows"].elements().map { try $0["base"].string() } == ["ETH"])
        // ETH's +0.22% on kra less BTC's +0.65% there.
        #expect(try json["rows"][0]["venues"][0]["exchange"].string() == "kra")
        #expect(try json["rows"][0]["venues"][0]["premVsBTC"].string() == "-0.43")
    }

    @Test("JSON names converted values by role with the board's currency, also when FX is refused")
    func jsonShape() async throws {
        let run = await runBoard(["premium", "BTC", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(try json["currency"].string() == "KRW")
        #expect(
            json["rows"][0]["venues"][0].value?.serialized()
                == #"{"exchange":"kra","symbol":"BTC/KRW","last":"80651000","lastConverted":"80651000","premiumPercent":"0.65","usdtPremiumPercent":"0.47","volumeConverted":"311604512879.45103","local":true,"outlier":false,"transfer":"open","premVsBTC":null,"receivedAt":"2024-08-08T08:12:15.000Z","ageSeconds":"0.000","stale":false}"#
        )
        #expect(try json["rows"][0]["volumeConverted"].string() == "420886524117.95229")
        #expect(json["rows"][0]["volumeKRW"].value == nil)
        #expect(json["rows"][0]["venues"][0]["lastKRW"].value == nil)

        // --in USD: the USD venue is local, its figures are in dollars under the same keys.
        let dollars = try await runBoard(["premium", "BTC", "--in", "USD", "-f", "json"]).json()
        #expect(try dollars["currency"].string() == "USD")
        #expect(
            try dollars["rows"][0]["venues"].elements().map {
                "\(try $0["exchange"].string()) \(try $0["lastConverted"].string()) \(try $0["local"].bool())"
            } == ["glb 58431.29 true", "gla 58412.07 false"])

        let refused = await runBoard(["premium", "--fx", "fxb", "-f", "json"])
        #expect(refused.status == 1)
        let board = try refused.json()
        #expect(try board["currency"].string() == "KRW")
        #expect(try board["rows"].elements().isEmpty)
        #expect(try board["errors"].elements().count == 1)
    }

    @Test("a symbol not on the board is an error entry in JSON, naming it, as on stderr")
    func missingSymbolJSON() async throws {
        let run = await runBoard(["premium", "ZZZ", "-f", "json"])
        #expect(run.status == 1)
        #expect(
            try run.json()["errors"].value?.serialized()
                == #"[{"exchange":null,"symbol":"ZZZ","kind":"notListed","code":null,"message":"ZZZ is not listed on both a local and a global venue"}]"#
        )
        #expect(run.errorLines == ["agg: ZZZ is not listed on both a local and a global venue"])
    }

    @Test("--count and --interval without --watch are usage errors, as --alert is")
    func watchOnlyOptions() async {
        for (arguments, message) in [
            (["-c", "2"], "--count needs --watch"), (["-i", "5"], "--interval needs --watch"),
            (["--alert", "BTC premium > 1%"], "--alert needs --watch"),
        ] {
            let run = await runBoard(["premium"] + arguments)
            #expect(run.status == 64)
            #expect(run.errorLines == ["agg: " + message])
        }
    }

    @Test("--max-fx-age is told back in the unit it was given, and the age in the same unit")
    func fxAgeUnit() async {
        for (age, message) in [
            (
                "1s",
                "fxa's rate is from 2024-08-07T16:12:15.000Z, 57600 s old, older than the 1 s allowed (--max-fx-age)"
            ),
            (
                "90m",
                "fxa's rate is from 2024-08-07T16:12:15.000Z, 960 min old, older than the 90 min allowed (--max-fx-age)"
            ),
            ("2h", "fxa's rate is from 2024-08-07T16:12:15.000Z, 16 h old, older than the 2 h allowed (--max-fx-age)"),
        ] {
            let run = await runBoard(["premium", "--fx", "fxa", "--max-fx-age", age, "-f", "json"])
            #expect(run.status == 1)
            #expect(run.errorLines == ["agg: no usable FX rate: " + message])
        }
    }

    @Test("USDT's own row is measured against one US dollar, so it agrees with the tether line to the cent")
    func tetherRowAgrees() async throws {
        let run = await runBoard(["premium", "USDT", "-f", "json"], extra: ["glb": ["USDT": ("0.9995", nil, nil)]])
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        let tether = try json["tether"].elements().map { try $0["premiumPercent"].string() }
        #expect(tether == ["0.18", "0.32"])
        let venues = try json["rows"][0]["venues"].elements()
        #expect(try venues.map { try $0["premiumPercent"].string() } == ["0.18", "0.32", "-0.05"])
        #expect(try json["rows"][0]["reference"]["priceUSD"].string() == "1")
        #expect(try json["rows"][0]["reference"]["method"].string() == "one US dollar (USDT = USD)")
        let table = await runBoard(
            ["premium", "USDT", "-f", "table", "--basis", "fx"], extra: ["glb": ["USDT": ("0.9995", nil, nil)]])
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines[1] == "Tether premium: +0.25% (USDT/KRW: kra +0.18%, krb +0.32%)")
        #expect(
            lines[2]
                == "Global price: each coin's median on gla, glb in USD (USDT = USD), outliers left out; USDT: one US dollar"
        )
        #expect(lines[4].hasPrefix("USDT  kra") && lines[4].contains("+0.18%"))
        #expect(lines[5].contains("krb") && lines[5].contains("+0.32%"))
    }

    @Test("the table says which global venues make each coin's reference")
    func referenceLine() async {
        let run = await runBoard(["premium", "BTC", "-f", "table", "--basis", "fx"])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output.split(separator: "\n").map(String.init)[2]
                == "Global price: each coin's median on gla, glb in USD (USDT = USD), outliers left out"
        )
    }

    @Test("a narrow terminal drops volume and the global price before the warnings in NOTE")
    func narrowKeepsNotes() async {
        let run = await runBoard(["premium", "ABC", "-f", "table", "--basis", "fx"], width: 60)
        #expect(run.status == 0, "\(run.error)")
        // NOTE does not fit in 60 columns: the table goes without it, the note is a line under it.
        #expect(
            Array(run.output.split(separator: "\n").map(String.init).dropFirst(3)) == [
                "COIN  EXCHANGE  LAST (KRW)  GLOBAL (KRW)  PREMIUM",
                "ABC   kra            1,000           960   +4.16%",
                "      krb            1,000                 +4.16%",
                "ABC: outlier: glb; transfers closed: kra",
            ])
        let wide = await runBoard(["premium", "ABC", "-f", "table", "--basis", "fx"], width: 200)
        #expect(wide.output.split(separator: "\n").count == 6)
        #expect(wide.output.split(separator: "\n").map(String.init)[4].hasSuffix("outlier: glb; transfers closed: kra"))
    }
}
