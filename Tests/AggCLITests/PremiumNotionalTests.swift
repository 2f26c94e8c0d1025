import AggCore
import AggJSON
import Foundation
import Testing

@testable import AggCLI

/// A venue of the notional board: its tickers, its books and (for `kra`) its transfer status,
/// each from a fixed table; the book requests counted.
private struct NotionalVenue: VenueAdapter {
    let descriptor: AdapterDescriptor
    /// base → (last, quote volume)
    let tickers: [String: (String, String)]
    /// base → (asks, bids), each `[(price, amount)]`.
    let books: [String: ([(String, String)], [(String, String)])]
    let transfers: [TransferStatus]
    let bookCalls: CallCounter

    func quote(for market: Market) async throws(AggError) -> Quote {
        guard let quote = quotes.first(where: { $0.market == market }) else {
            throw .notListed(venue: descriptor.id, market: market, code: "", message: "")
        }
        return quote
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        BulkAnswer(values: quotes)
    }

    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] { transfers }

    func fetchOrderBook(_ request: BookRequest) async throws(AggError) -> OrderBook {
        _ = bookCalls.next()
        guard let book = books[request.market.base] else {
            throw .notListed(venue: descriptor.id, market: request.market, code: "", message: "")
        }
        func levels(_ pairs: [(String, String)]) -> [BookLevel] {
            pairs.map { BookLevel(price: Decimal(string: $0.0) ?? 0, amount: Decimal(string: $0.1) ?? 0) }
        }
        return OrderBook(
            exchange: descriptor.id, market: request.market, timestamp: notionalNow, bids: levels(book.1),
            asks: levels(book.0))
    }

    private var quotes: [Quote] {
        tickers.map { base, values in
            Quote(
                exchange: descriptor.id, market: Market(base: base, quote: descriptor.homeCurrency),
                last: Decimal(string: values.0) ?? 0, quoteVolume: Decimal(string: values.1))
        }
    }
}

/// 2024-08-08T08:12:15Z.
private let notionalNow = Timestamp(millisecondsSince1970: 1_723_104_735_000)

/// `fx`: USD→KRW 1000, an hour old.
private struct ThousandFX: VenueAdapter {
    let descriptor = AdapterDescriptor(
        id: "fx", displayName: "fx", country: "ZZ", homeCurrency: "USD", quoteCurrencies: [], capabilities: [.fxRates],
        requestsPerSecond: 1, defaultBaseURL: "https://fx.invalid")

    func fetchRates(_ request: RateRequest) async throws(AggError) -> RateTable {
        RateTable(
            source: "fx", base: request.base, rates: ["USD": 1, "KRW": 1000],
            asOf: Timestamp(millisecondsSince1970: notionalNow.millisecondsSince1970 - 3_600_000), nextUpdate: nil)
    }
}

/// `kra` (KRW, taker 0.05 % on top, BTC withdrawn at 0.1 % with a 0.05 BTC minimum) and `gla`
/// (USDT, taker 0.1 %, no transfer status), at USD→KRW 1000:
/// - BTC, thick: gla asks 1,000 (100), bids 999 (100); kra asks 1,012,000 (50), bids 1,010,000 (50).
/// - THIN: gla asks 10 (100: 1M KRW), bids 9.9 (50); kra asks 10,600 (2000), bids 10,500 (1000).
/// - DDD: the least volume, beyond `--top 2`.
private func notionalRegistry(bookCalls: CallCounter, globalRate: Double = 100, glaTable: WithdrawalFeeTable? = nil)
    -> AdapterRegistry
{
    func venue(_ id: String, _ quote: String, basisPoints: Int, rate: Double = 100) -> AdapterDescriptor {
        AdapterDescriptor(
            id: id, displayName: id, country: quote == "KRW" ? "KR" : "US", homeCurrency: quote,
            quoteCurrencies: [quote],
            capabilities: quote == "KRW"
                ? [.ticker, .allTickers, .orderBook, .transferStatus] : [.ticker, .allTickers, .orderBook],
            requestsPerSecond: rate, defaultBaseURL: "https://\(id).invalid",
            fees: FeeSchedule(takerBasisPoints: basisPoints, source: "test", asOf: "2026-12-01"))
    }
    let kra = NotionalVenue(
        descriptor: venue("kra", "KRW", basisPoints: 5),
        tickers: ["BTC": ("1010000", "1000000000000"), "THIN": ("10500", "100000000000"), "DDD": ("100", "1")],
        books: [
            "BTC": ([("1012000", "50")], [("1010000", "50")]), "THIN": ([("10600", "2000")], [("10500", "1000")]),
            "DDD": ([("101", "10")], [("99", "10")]),
        ],
        transfers: [
            TransferStatus(
                exchange: "kra", coin: "BTC", network: "BTC", deposit: .open, withdraw: .open,
                withdrawal: .percentage(
                    rate: Decimal(1) / 1000, minimum: Decimal(5) / 100, maximum: nil))
        ], bookCalls: bookCalls)
    var glaDescriptor = venue("gla", "USDT", basisPoints: 10, rate: globalRate)
    glaDescriptor.withdrawalFees = glaTable
    let gla = NotionalVenue(
        descriptor: glaDescriptor,
        tickers: ["BTC": ("1000", "1"), "THIN": ("10", "1"), "DDD": ("0.1", "1")],
        books: ["BTC": ([("1000", "100")], [("999", "100")]), "THIN": ([("10", "100")], [("9.9", "50")])],
        transfers: [], bookCalls: bookCalls)
    // `glx` gives tickers but no order book.
    var glxDescriptor = venue("glx", "USDT", basisPoints: 10)
    glxDescriptor.capabilities.remove(.orderBook)
    let glx = NotionalVenue(
        descriptor: glxDescriptor, tickers: ["BTC": ("1000", "1")], books: [:], transfers: [], bookCalls: bookCalls)
    return AdapterRegistry(
        [kra, gla, glx].map { venue in AdapterRegistration(descriptor: venue.descriptor) { _ in venue } }
            + [AdapterRegistration(descriptor: ThousandFX().descriptor) { _ in ThousandFX() }])
}

private func runNotional(
    _ arguments: [String], bookCalls: CallCounter = CallCounter(), globalRate: Double = 100,
    glaTable: WithdrawalFeeTable? = nil
) async -> CLIRun {
    await runCLI(
        arguments, width: 200,
        registry: notionalRegistry(bookCalls: bookCalls, globalRate: globalRate, glaTable: glaTable), now: notionalNow)
}

@Suite("agg premium --notional")
struct PremiumNotionalTests {
    static func text(_ cursor: JSONCursor) -> String { cursor.value?.serialized() ?? "" }

    /// kra's venue object of `coin`'s row.
    static func kra(_ json: JSONCursor, _ coin: String) throws -> JSONCursor {
        let row = try #require(try json["rows"].elements().first { try $0["base"].string() == coin })
        return try #require(try row["venues"].elements().first { try $0["exchange"].string() == "kra" })
    }

    // BTC, thick. Kimchi: 10M KRW is 10,000 USDT at 1000, 10 BTC at gla's 1,000, sold on kra's
    // bids at 1,010,000: 10,100,000 KRW = 10,100 USDT, +1.00 %. Reverse: 10M KRW buys
    // 9.88142292... BTC at 1,012,000, sold at 999 USDT: 9,871.54150... USDT = 9,871,541.50...
    // KRW, -1.28458...% -> -1.28 %.
    // THIN, thin: gla's asks hold 100 THIN (1,000 USDT = 1M KRW), sold at 10,500: 1,050,000 KRW,
    // +5.00 %, filling 1M of 10M. Reverse: gla's bids take 50 THIN, bought on kra at 10,600
    // (530,000 KRW), sold at 9.9: 495 USDT = 495,000 KRW, -6.6037...% -> -6.60 %, filling 530K.
    // DDD is beyond --top 2: it keeps its last, and its books are not asked.
    @Test("gross: a thick book and a thin one priced both ways by hand; a coin beyond --top keeps last")
    func grossWalks() async throws {
        let calls = CallCounter()
        let run = await runNotional(["premium", "--notional", "10M", "--top", "2", "-f", "json"], bookCalls: calls)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "")
        let json = try run.json()
        #expect(Self.text(json["notional"]) == #"{"amount":"10000000","currency":"KRW","net":false,"top":2}"#)
        #expect(
            Self.text(try Self.kra(json, "BTC")["atNotional"])
                == #"{"kimchi":{"exchange":"gla","percent":"1.00","filled":"10000000","depthLimited":false,"problem":null},"#
                + #""reverse":{"exchange":"gla","percent":"-1.28","filled":"10000000","depthLimited":false,"problem":null}}"#
        )
        #expect(
            Self.text(try Self.kra(json, "THIN")["atNotional"])
                == #"{"kimchi":{"exchange":"gla","percent":"5.00","filled":"1000000","depthLimited":true,"problem":null},"#
                + #""reverse":{"exchange":"gla","percent":"-6.60","filled":"530000","depthLimited":true,"problem":null}}"#
        )
        #expect(try Self.kra(json, "DDD")["atNotional"].value == .null)
        #expect(try Self.kra(json, "DDD")["last"].string() == "100")
        // Two coins on two venues: four book requests, none for DDD.
        #expect(calls.next() == 5)
    }

    // Reverse, net: kra's 10M KRW plus 0.05 % (5,000) buys 9.881422924... BTC; 0.1 % of it is
    // 0.00988 BTC, below the 0.05 BTC minimum, so 0.05 goes: 9.831422924... BTC arrive, sold
    // at 999 less gla's 0.1 %: 9,811,769.91... KRW against a cost of 10,005,000: -1.9313...% ->
    // -1.93 %. Kimchi, net: gla publishes no withdrawal fee, so there is no net, said.
    @Test("--net: both taker fees and a percentage withdrawal fee held at its minimum; an unknown fee is said")
    func netWithMinimumFee() async throws {
        let run = await runNotional(["premium", "BTC", "--notional", "10M", "--net", "-f", "json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(
            Self.text(try Self.kra(json, "BTC")["atNotional"]["reverse"])
                == #"{"exchange":"gla","percent":"-1.93","filled":"10000000","depthLimited":false,"problem":null}"#)
        #expect(
            Self.text(try Self.kra(json, "BTC")["atNotional"]["kimchi"])
                == #"{"exchange":"gla","percent":null,"filled":null,"depthLimited":false,"#
                + #""problem":"the withdrawal fee of BTC on gla (BTC) is unknown: no net without it"}"#)
    }

    // Kimchi, net, with a shipped table for gla (no transfer status): 10M KRW is 10,000 USDT,
    // 10 BTC at 1,000 plus gla's 0.1 % (10 USDT) on top, a cost of 10,010,000 KRW; the table's
    // 0.01 BTC goes, 9.99 BTC sell at kra's 1,010,000 less 0.05 %: 10,084,855.05 KRW, a net of
    // 74,855.05, +0.7478...% -> 0.75 %; agg arb prices the same route the same.
    @Test("--net: a venue without transfer status priced with its shipped table, as agg arb prices it")
    func netWithTable() async throws {
        let table = WithdrawalFeeTable(source: "https://gla.example/fees", asOf: "2024-08-05", fees: ["BTC": 1 / 100])
        let board = try await runNotional(
            ["premium", "BTC", "--notional", "10M", "--net", "-f", "json"], glaTable: table
        ).json()
        #expect(
            Self.text(try Self.kra(board, "BTC")["atNotional"]["kimchi"])
                == #"{"exchange":"gla","percent":"0.75","filled":"10000000","depthLimited":false,"problem":null}"#)
        let arb = try await runNotional(
            ["arb", "BTC", "--from", "gla", "--to", "kra", "--notional", "10M", "-f", "json"], glaTable: table
        ).json()
        #expect(try arb["net"].string() == "74855.05")
        #expect(try arb["netPercent"].string() == "0.75")
        #expect(
            Self.text(arb["transfer"])
                == #"{"network":"BTC","fee":"0.01","feeCurrency":"BTC","withdraw":"unknown","deposit":"open","#
                + #""feeSource":{"kind":"table","source":"https://gla.example/fees","asOf":"2024-08-05","ageDays":3}}"#)
    }

    @Test("--net gives agg arb's net percent for the same route and notional, exactly")
    func netEqualsArb() async throws {
        let board = try await runNotional(["premium", "BTC", "--notional", "10M", "--net", "-f", "json"]).json()
        let arb = await runNotional(["arb", "BTC", "--from", "kra", "--to", "gla", "--notional", "10M", "-f", "json"])
        #expect(arb.status == 0, "\(arb.error)")
        let arbPercent = try arb.json()["netPercent"].string()
        #expect(arbPercent == "-1.93")
        #expect(try Self.kra(board, "BTC")["atNotional"]["reverse"]["percent"].string() == arbPercent)
    }

    @Test("table: the two columns at the size, a depth-limited row's fill, a coin beyond --top with -")
    func table() async {
        let run = await runNotional(["premium", "--notional", "10M", "--top", "2", "--basis", "fx", "-f", "table"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        // THIN ranks first by premium; the columns come after the premiums, before the volume.
        let expected: [String] = [
            "At 10,000,000 KRW: the 2 coins with the most volume, from the order books both ways (KIMCHI: global "
                + "ask -> local bid; REVERSE: local ask -> global bid), no fee charged (--net subtracts fees and "
                + "the transfer); the others keep their last price",
            "COIN  EXCHANGE  LAST (KRW)  GLOBAL (KRW)  PREMIUM  VS BTC                  KIMCHI @10M"
                + "                   REVERSE @10M         VOLUME 24H   AGE  NOTE",
            "THIN  kra           10,500        10,000   +5.00%  +4.00%  +5.00% gla, fills 1M of 10M"
                + "  -6.60% gla, fills 530K of 10M    100,000,000,000  0.0s",
            "BTC   kra        1,010,000     1,000,000   +1.00%       -                   +1.00% gla"
                + "                     -1.28% gla  1,000,000,000,000  0.0s",
            "DDD   kra              100           100    0.00%  -1.00%                            -"
                + "                              -                  1  0.0s",
        ]
        #expect(Array(lines.dropFirst(2)) == expected)
    }

    @Test("table with --net: NET titles, and a route without a net is n/a with its reason under the table")
    func netTable() async {
        let run = await runNotional(["premium", "BTC", "--notional", "2.5M", "--net", "--basis", "fx", "-f", "table"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.dropFirst(3).first?.contains("NET KIMCHI @2.5M") == true)
        #expect(lines.dropFirst(3).first?.contains("NET REVERSE @2.5M") == true)
        #expect(lines.dropFirst(4).first?.contains(" n/a ") == true)
        #expect(lines.last == "BTC kra kimchi: the withdrawal fee of BTC on gla (BTC) is unknown: no net without it")
    }

    // gla allows one request a second: two books within the board's 2 s, the two coins with
    // the most volume; DDD's book there is not asked, and its routes say why.
    @Test("a venue asked one book a request gets only what its rate limit allows in 2 s; the rest say why")
    func rateLimitBudget() async throws {
        let calls = CallCounter()
        let run = await runNotional(
            ["premium", "--notional", "10M", "--top", "3", "-f", "json"], bookCalls: calls, globalRate: 1)
        #expect(run.status == 0, "\(run.error)")
        let json = try run.json()
        #expect(try Self.kra(json, "BTC")["atNotional"]["kimchi"]["percent"].string() == "1.00")
        let problem = "gla's DDD/USDT book not asked: its rate limit (1 a second) allows 2 books within 2 s"
        #expect(try Self.kra(json, "DDD")["atNotional"]["kimchi"]["problem"].string() == problem)
        #expect(try Self.kra(json, "DDD")["atNotional"]["reverse"]["problem"].string() == problem)
        // kra: three books; gla: two.
        #expect(calls.next() == 6)
    }

    @Test("bad input: --net without --notional, a bad notional, --top 0, --notional with --watch: exit 64, one line")
    func badInput() async {
        for (arguments, message) in [
            (["--net"], "agg: --net needs --notional AMOUNT"),
            (
                ["--notional", "1,000,000"],
                "agg: invalid --notional '1,000,000': write it without separators, such as 1000000 or 1M"
            ),
            (["--notional", "0"], "agg: invalid --notional '0': the notional must be above 0"),
            (["--notional", "2000B"], "agg: invalid --notional '2000B': the notional must be at most 1e12"),
            (["--notional", "2T"], "agg: invalid --notional '2T': unknown unit 'T'; the units are K, M and B"),
            (["--notional", "10M", "--watch"], "agg: --notional does not work with --watch"),
        ] {
            let run = await runNotional(["premium"] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errorLines.first == message, "\(arguments)")
            #expect(run.output == "")
        }
        let bookless = await runNotional(["premium", "-e", "kra,glx", "--notional", "10M"])
        #expect(bookless.status == 64)
        #expect(bookless.errorLines == ["agg: glx has no order book to walk for --notional; see 'agg exchanges'"])
        let top = await runNotional(["premium", "--notional", "10M", "--top", "0"])
        #expect(top.status == 64)
        #expect(top.errorLines.count == 1)
    }
}
