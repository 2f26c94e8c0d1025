import AggCore
import AggJSON
import AggTestKit
import Testing

/// A small venue that keeps the contract, unless told to break one clause of it.
struct SampleAdapter: VenueAdapter {
    enum Flaw: String, Sendable, CaseIterable {
        case none, missingCapability, undeclaredAnswer, otherMarket, unlistedAsVenueError, errorNamesNoVenue
        case unservedCostsRequest, candlesNewestFirst, tooManyRows, multiLineError
        case transfersOfUnlisted, negativeFee, skippedListing

        /// The flaws of a venue that publishes transfer status.
        static let transferFlaws: [Flaw] = [.transfersOfUnlisted, .negativeFee]
    }

    static let base = AdapterDescriptor(
        id: "sample", displayName: "Sample", country: "KR", homeCurrency: "KRW", quoteCurrencies: ["KRW"],
        capabilities: [.ticker, .candles], requestsPerSecond: 5, defaultBaseURL: "https://sample.test",
        notListedCodes: ["not_found"])

    struct Route: VenueRoute {
        var path: String
    }

    let descriptor: AdapterDescriptor
    let flaw: Flaw
    let client: VenueClient
    let http: any HTTPClient

    init(flaw: Flaw, environment: AdapterEnvironment) {
        self.descriptor = Self.descriptor(flaw)
        self.flaw = flaw
        http = environment.http
        client = VenueClient(
            descriptor, environment: environment,
            envelope: ResponseEnvelope(error: { json, _ in
                (try? json["code"].string()).map { VenueErrorFields(code: $0, message: "no such market") }
            }))
    }

    static func descriptor(_ flaw: Flaw) -> AdapterDescriptor {
        var descriptor = base
        if flaw == .missingCapability { descriptor.capabilities.insert(.orderBook) }
        if Flaw.transferFlaws.contains(flaw) { descriptor.capabilities.insert(.transferStatus) }
        if flaw == .skippedListing { descriptor.capabilities.insert(.markets) }
        return descriptor
    }

    static func registration(_ flaw: Flaw) -> AdapterRegistration {
        AdapterRegistration(descriptor: descriptor(flaw)) { SampleAdapter(flaw: flaw, environment: $0) }
    }

    /// Declared only by the transfer flaws: the status list, all coins whatever is asked for
    /// (`transfersOfUnlisted`) or with a negative fee (`negativeFee`).
    func fetchTransferStatus() async throws(AggError) -> [TransferStatus] {
        guard Flaw.transferFlaws.contains(flaw) else {
            throw .unsupported(venue: "sample", capability: .transferStatus)
        }
        let rows = try await client.get(Route(path: "/transfers")) { json throws(JSONDecodingError) in
            try json.elements().map { row throws(JSONDecodingError) in
                TransferStatus(
                    exchange: "sample", coin: try row["coin"].string(), network: "BTC", deposit: .open, withdraw: .open,
                    withdrawFee: flaw == .negativeFee ? -1 : try row["fee"].decimal())
            }
        }
        return rows
    }

    func quote(for market: Market) async throws(AggError) -> Quote {
        if flaw == .unservedCostsRequest, market.quote != "KRW" {
            _ = try? await http.send(HTTPRequest(url: "https://sample.test/ticker"))
        }
        if flaw == .errorNamesNoVenue, market.base == "NOPE" {
            throw .connection(venue: "elsewhere", url: "https://sample.test", detail: "refused")
        }
        if flaw == .multiLineError, market.base == "NOPE" {
            throw .usage("no such market\nreally")
        }
        do throws(AggError) {
            return try await client.get(Route(path: "/ticker/\(market.base)_\(market.quote)"), for: market) {
                json throws(JSONDecodingError) in
                Quote(
                    exchange: "sample", market: flaw == .otherMarket ? Market(base: "ETH", quote: "KRW") : market,
                    last: try json["price"].decimal())
            }
        } catch {
            if flaw == .unlistedAsVenueError, case .notListed = error {
                throw .venue(venue: "sample", code: "not_found", message: "no such market")
            }
            throw error
        }
    }

    func fetchCandles(_ request: CandleRequest) async throws(AggError) -> [Candle] {
        let market = request.market
        let candles = try await client.get(Route(path: "/candles/\(market.base)_\(market.quote)"), for: market) {
            json throws(JSONDecodingError) in
            try json.elements().map { row throws(JSONDecodingError) in
                let price = try row[1].decimal()
                return Candle(
                    time: Timestamp(millisecondsSince1970: try row[0].int64()), open: price, high: price, low: price,
                    close: price, volume: 1)
            }
        }
        let kept = flaw == .tooManyRows ? candles : Array(candles.suffix(request.count))
        return flaw == .candlesNewestFirst ? kept.reversed() : kept
    }

    /// Declared only by `skippedListing`: BTC/KRW, and an entry whose name is not a string.
    func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        guard flaw == .skippedListing else { throw .unsupported(venue: "sample", capability: .markets) }
        return try await client.get(Route(path: "/markets")) { json throws(JSONDecodingError) in
            try .elements(of: json, venue: "sample", nameKey: "name") { entry throws(JSONDecodingError) in
                let name = try entry["name"].string()
                return MarketListing(
                    exchange: "sample", market: Market(base: String(name.prefix(3)), quote: "KRW"), venueSymbol: name)
            }
        }
    }

    func fetchTrades(_ request: TradeRequest) async throws(AggError) -> [Trade] {
        guard flaw == .undeclaredAnswer else { throw .unsupported(venue: "sample", capability: .trades) }
        return [Trade(time: Timestamp(millisecondsSince1970: 1), side: .buy, price: 1, amount: 1, cost: 1)]
    }
}

/// The sample venue's answers: BTC/KRW is listed, everything else is not found.
private let sampleHTTP = ScriptedHTTPClient { request in
    let body: String
    let status: Int
    switch request.url {
    case "https://sample.test/ticker/BTC_KRW": (status, body) = (200, #"{"price":"100"}"#)
    case "https://sample.test/transfers": (status, body) = (200, #"[{"coin":"BTC","fee":"0.0005"}]"#)
    case "https://sample.test/markets": (status, body) = (200, #"[{"name":"BTC_KRW"},{"name":7}]"#)
    case "https://sample.test/candles/BTC_KRW":
        (status, body) = (200, "[[1000,\"1\"],[2000,\"2\"],[3000,\"3\"],[4000,\"4\"]]")
    default: (status, body) = (404, #"{"code":"not_found"}"#)
    }
    return HTTPResponse(status: status, headers: [], body: Array(body.utf8), url: request.url)
}

private let samples = ContractSamples(
    listed: Market(base: "BTC", quote: "KRW"), unlisted: Market(base: "NOPE", quote: "KRW"))

private func problems(_ flaw: SampleAdapter.Flaw) async -> [String] {
    await AdapterContract.check(
        SampleAdapter.registration(flaw), http: sampleHTTP, baseURL: "https://sample.test", samples: samples)
}

@Suite("The contract checker")
struct ContractCheckerTests {
    @Test("a venue that keeps the contract has no violations")
    func keeps() async {
        #expect(await problems(.none) == [])
    }

    @Test(
        "each broken clause is reported, and only that clause",
        arguments: [
            (
                SampleAdapter.Flaw.missingCapability,
                [
                    "orderBook: declared, but fails: sample: order book is not supported by sample",
                    "orderBook: NOPE/KRW gives sample: order book is not supported by sample, not 'not listed' for NOPE/KRW",
                    "orderBook in an unserved currency: BTC/ZZZ gives sample: order book is not supported by sample, "
                        + "not 'not listed' for BTC/ZZZ",
                ]
            ),
            (.undeclaredAnswer, ["trades: not declared, but answers"]),
            (
                .otherMarket,
                [
                    "ticker: a quote of sample ETH/KRW, asked for BTC/KRW",
                    "quotes: a quote of sample ETH/KRW, asked for BTC/KRW",
                ]
            ),
            (
                .unlistedAsVenueError,
                [
                    "ticker: NOPE/KRW gives sample: error not_found: no such market, not 'not listed' for NOPE/KRW",
                    "quotes: NOPE/KRW gives sample: error not_found: no such market, not 'not listed' for NOPE/KRW",
                    "ticker in an unserved currency: BTC/ZZZ gives sample: error not_found: no such market, "
                        + "not 'not listed' for BTC/ZZZ",
                ]
            ),
            (
                .errorNamesNoVenue,
                [
                    "ticker: the error does not name sample first: elsewhere: connection to https://sample.test failed: refused",
                    "ticker: NOPE/KRW gives elsewhere: connection to https://sample.test failed: refused, not 'not listed' for NOPE/KRW",
                    "quotes: the error does not name sample first: elsewhere: connection to https://sample.test failed: refused",
                    "quotes: NOPE/KRW gives elsewhere: connection to https://sample.test failed: refused, not 'not listed' for NOPE/KRW",
                ]
            ),
            (.unservedCostsRequest, ["ticker in an unserved currency: BTC/ZZZ costs a request"]),
            (.negativeFee, ["transferStatus: a negative withdrawal fee for BTC on BTC"]),
            (
                .skippedListing,
                [
                    "markets: the recorded list skips an entry: sample: skipped 7: "
                        + "unexpected response at $[1].name: expected a string, found a number"
                ]
            ),
        ])
    func reports(flaw: SampleAdapter.Flaw, expected: [String]) async {
        let found = await problems(flaw)
        #expect(found == expected)
    }

    /// These clauses were broken by adapters that forgot to sort, trim or filter; the core now
    /// does it for every venue (`VenueAdapter`'s entry points), whatever the primitive answers.
    @Test(
        "the core keeps order, limit and the coins asked for, whatever the adapter's primitive answers",
        arguments: [SampleAdapter.Flaw.candlesNewestFirst, .tooManyRows, .transfersOfUnlisted])
    func keptByTheCore(flaw: SampleAdapter.Flaw) async {
        #expect(await problems(flaw) == [])
    }

    @Test("an error that is not one line, or blames the user, is reported")
    func multiLine() async {
        let found = await problems(.multiLineError)
        #expect(found.contains("ticker: a usage error for a venue's answer: no such market really"))
        #expect(found.contains("ticker: the error does not name sample first: no such market really"))
    }

    @Test("samples missing for declared capabilities are reported before anything is asked")
    func missingSamples() async {
        let found = await AdapterContract.check(
            SampleAdapter.registration(.none), http: sampleHTTP, baseURL: "https://sample.test",
            samples: ContractSamples())
        #expect(found.first == "contract.json names no listed and unlisted market for its market capabilities")
    }
}
