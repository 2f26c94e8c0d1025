import AggCore
import Foundation
import Synchronization

/// The contract every registered venue keeps, checked against its recorded answers.
///
/// - Each declared capability answers with values: non-empty, about the market asked, from this
///   venue, in the documented order (candles oldest first, trades newest first, bids highest
///   first, asks lowest first), no more rows than asked for. Markets are read as the CLI reads
///   them (`marketList`): a list that takes several requests may report the requests that failed
///   beside the listings of those that answered.
/// - Each undeclared capability throws `AggError.unsupported` for this venue.
/// - The venue's not-found answer (the `unlisted` sample) is `notListed`, naming the market asked,
///   for every market capability and in a batch beside a listed market; transfer status has no
///   rows for the unlisted coin.
/// - A market in a currency the venue does not serve is `notListed` without a request.
/// - Every error, including those of broken answers (no connection, an HTML error page, a body
///   that is not JSON, empty JSON), is one line naming the venue first.
///
/// `check` returns every violation, one line each; an adapter that keeps the contract gives none.
public enum AdapterContract {
    /// The violations of `registration`'s adapter, reached at `baseURL` through `http` (serving the
    /// venue's recorded answers), asked for `samples`.
    public static func check(
        _ registration: AdapterRegistration, http: any HTTPClient, baseURL: String, samples: ContractSamples
    ) async -> [String] {
        let checker = Checker(registration: registration, samples: samples)
        await checker.run(http: http, baseURL: baseURL)
        return checker.problems
    }

    /// The violations of `registration`'s adapter against `Fixtures/<id>/`, answered in process
    /// as `--offline` answers (`routes.json`), asked for the samples in `contract.json`.
    public static func checkRecorded(_ registration: AdapterRegistration) async throws -> [String] {
        let id = registration.descriptor.id
        let baseURL = "https://contract.invalid/\(id)"
        return await check(
            registration, http: try Fixtures.client(id, baseURL: baseURL), baseURL: baseURL,
            samples: try ContractSamples.venue(id))
    }
}

/// One value a capability answered with.
private enum Answer {
    case quote(Quote)
    case quotes([Quote])
    case listings(MarketList)
    case candles([Candle])
    case trades([Trade])
    case book(OrderBook)
    case rates(RateTable)
    case transfers([TransferStatus])
    case events([EventObservation])
}

/// One run of the checker over one venue, collecting violations.
private final class Checker: Sendable {
    let registration: AdapterRegistration
    let samples: ContractSamples
    private let found = Mutex<[String]>([])

    /// Rows asked for in candles and trades, and levels a side in the book.
    static let rows = 3

    init(registration: AdapterRegistration, samples: ContractSamples) {
        self.registration = registration
        self.samples = samples
    }

    var descriptor: AdapterDescriptor { registration.descriptor }
    var id: String { descriptor.id }
    var problems: [String] { found.withLock { $0 } }

    func problem(_ text: String) {
        found.withLock { $0.append(text) }
    }

    /// The market every market capability is asked about.
    var listed: Market { samples.listed ?? Market(base: "BTC", quote: descriptor.homeCurrency) }

    func run(http: any HTTPClient, baseURL: String) async {
        checkDescriptor()
        let environment = AdapterEnvironment(baseURL: baseURL, http: http)
        let adapter = registration.make(environment)
        if adapter.descriptor != descriptor {
            problem("the adapter's descriptor differs from its registration's")
        }
        checkStream(adapter)
        for capability in Capability.allCases where capability != .stream {
            if descriptor.supports(capability) {
                await checkDeclared(capability, adapter: adapter)
            } else {
                await checkUndeclared(capability, adapter: adapter)
            }
        }
        await checkNotListed(adapter)
        await checkUnserved(http: http, baseURL: baseURL)
        await checkBrokenAnswers(baseURL: baseURL)
    }

    // MARK: Descriptor and samples

    func checkDescriptor() {
        if id.isEmpty || !id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }) {
            problem("id '\(id)' is not lower-case letters and digits")
        }
        if !(descriptor.requestsPerSecond > 0) { problem("requestsPerSecond is not positive") }
        if descriptor.capabilities.isEmpty { problem("declares no capability") }
        let marketCapabilities = descriptor.capabilities.subtracting([.fxRates])
        if !marketCapabilities.isEmpty {
            if !descriptor.quoteCurrencies.contains(descriptor.homeCurrency) {
                problem("home currency \(descriptor.homeCurrency) is not among its quote currencies")
            }
            if samples.listed == nil || samples.unlisted == nil {
                problem("contract.json names no listed and unlisted market for its market capabilities")
            }
        }
        if descriptor.supports(.fxRates), samples.fxBase == nil {
            problem("contract.json names no fxBase for its exchange rates")
        }
        let ownSources = descriptor.eventSources.contains { $0.reader == .adapter }
        if descriptor.supports(.events) != ownSources {
            problem(
                "events: declared \(descriptor.supports(.events)), but \(ownSources ? "" : "no ")event source is read by the adapter"
            )
        }
        if Set(descriptor.eventSources.map(\.id)).count != descriptor.eventSources.count {
            problem("events: two event sources share an id")
        }
        for source in descriptor.eventSources
        where !(source.minimumInterval > .zero) || source.interval < source.minimumInterval {
            problem(
                "events: \(source.id)'s interval \(source.interval) is not at least its positive minimum \(source.minimumInterval)"
            )
        }
        if let listed = samples.listed, !descriptor.quoteCurrencies.contains(listed.quote) {
            problem("the listed sample \(listed) is in a currency it does not serve")
        }
    }

    // MARK: Capabilities

    /// Asks `adapter` for `capability` about `market`.
    func ask(_ capability: Capability, _ adapter: any VenueAdapter, market: Market) async throws(AggError)
        -> Answer
    {
        switch capability {
        case .ticker: .quote(try await adapter.quote(for: market))
        case .allTickers:
            .quotes(try await adapter.allQuotes(quotedIn: samples.allTickersQuote ?? descriptor.homeCurrency))
        case .markets: .listings(try await listings(adapter))
        case .candles:
            .candles(
                try await adapter.candles(
                    for: market, interval: samples.candleInterval ?? descriptor.limits.candleIntervals.first ?? .oneDay,
                    limit: Self.rows))
        case .trades: .trades(try await adapter.trades(for: market, limit: Self.rows))
        case .orderBook: .book(try await adapter.orderBook(for: market, depth: Self.rows))
        case .fxRates: .rates(try await adapter.rates(base: samples.fxBase ?? "USD"))
        case .transferStatus: .transfers(try await adapter.transferStatus(coins: [market.base]))
        // A stream is no request and answer: `checkStream` holds it.
        case .stream: throw .unsupported(venue: id, capability: .stream)
        case .events: .events(try await ownEvents(adapter))
        }
    }

    /// An observation of each event source the adapter reads itself; `unsupported` when it has
    /// none, as the primitive's default says.
    func ownEvents(_ adapter: any VenueAdapter) async throws(AggError) -> [EventObservation] {
        let own = descriptor.eventSources.filter { $0.reader == .adapter }
        guard !own.isEmpty else { return [try await adapter.fetchEvents(Self.probe, at: Self.probeTime)] }
        var observations: [EventObservation] = []
        for source in own { observations.append(try await adapter.events(from: source.id, at: Self.probeTime)) }
        return observations
    }

    /// A source no venue has, to ask an adapter that declares none.
    static let probe = EventSource(
        id: "contract", reader: .adapter, interval: .seconds(60), minimumInterval: .seconds(1), summary: "")
    static let probeTime = Timestamp(secondsSince1970: 1_800_000_000)

    /// The venue's markets as the CLI reads them (`marketList`): the listings that answered, the
    /// failure of the whole list when none did.
    func listings(_ adapter: any VenueAdapter) async throws(AggError) -> MarketList {
        let list = await adapter.marketList(quotedIn: nil)
        if list.listings.isEmpty, let failure = list.failures.first { throw failure.error }
        return list
    }

    func checkDeclared(_ capability: Capability, adapter: any VenueAdapter) async {
        let answer: Answer
        do throws(AggError) {
            answer = try await ask(capability, adapter, market: listed)
        } catch {
            problem("\(capability.rawValue): declared, but fails: \(error.description)")
            checkError(error, context: capability.rawValue)
            return
        }
        check(answer, of: capability)
    }

    /// `.stream` is declared exactly when the descriptor describes a stream and the adapter has
    /// a codec; a declared stream subscribes the listed sample market. (What the venue's frames
    /// decode to is in each venue's stream tests, against its frame scripts.)
    func checkStream(_ adapter: any VenueAdapter) {
        let declared = descriptor.supports(.stream)
        if declared != (descriptor.stream != nil) {
            problem("stream: declared \(declared), but the descriptor \(declared ? "describes none" : "describes one")")
        }
        if declared != (adapter.tickerStream != nil) {
            problem("stream: declared \(declared), but the adapter \(declared ? "has no codec" : "has a codec")")
        }
        if declared, let codec = adapter.tickerStream, codec.subscribeMessages(for: [listed]).isEmpty {
            problem("stream: no message subscribes \(listed)")
        }
    }

    func checkUndeclared(_ capability: Capability, adapter: any VenueAdapter) async {
        do throws(AggError) {
            _ = try await ask(capability, adapter, market: listed)
            problem("\(capability.rawValue): not declared, but answers")
        } catch {
            if error != .unsupported(venue: id, capability: capability) {
                problem("\(capability.rawValue): not declared, but throws \(error.description) instead of unsupported")
            }
        }
    }

    func check(_ answer: Answer, of capability: Capability) {
        let name = capability.rawValue
        switch answer {
        case .quote(let quote):
            checkQuote(quote, market: listed, context: name)
        case .quotes(let quotes):
            let currency = samples.allTickersQuote ?? descriptor.homeCurrency
            if quotes.isEmpty { problem("\(name): no quotes") }
            for quote in quotes where quote.exchange != id || quote.market.quote != currency {
                problem("\(name): a quote of \(quote.exchange) \(quote.market) asked in \(currency)")
                break
            }
            if listed.quote == currency, !quotes.contains(where: { $0.market == listed }) {
                problem("\(name): no quote of \(listed)")
            }
        case .listings(let list):
            let listings = list.listings
            for failure in list.failures {
                checkError(failure.error, context: "\(name) in \(failure.quoteCurrency ?? "all")")
            }
            // A recorded list decodes whole: a skipped entry there is a decoder stricter than its
            // venue (rule 1 keeps a bad entry from costing the others, not good ones from answering).
            for entry in list.skipped { problem("\(name): the recorded list skips an entry: \(entry)") }
            if listings.isEmpty { problem("\(name): no markets") }
            if listings.contains(where: { $0.exchange != id }) { problem("\(name): a listing of another venue") }
            if !listings.contains(where: { $0.market == listed }) { problem("\(name): \(listed) is not among them") }
        case .candles(let candles):
            checkRows(candles.map(\.time), ascending: true, context: name)
        case .trades(let trades):
            checkRows(trades.map(\.time), ascending: false, context: name)
            if trades.contains(where: { $0.price <= 0 || $0.amount <= 0 }) {
                problem("\(name): a trade without a positive price and amount")
            }
        case .book(let book):
            if book.exchange != id || book.market != listed {
                problem("\(name): the book of \(book.exchange) \(book.market), asked for \(listed)")
            }
            if book.bids.isEmpty || book.asks.isEmpty { problem("\(name): an empty side") }
            if book.bids.count > Self.rows || book.asks.count > Self.rows {
                problem("\(name): more than \(Self.rows) levels a side")
            }
            if book.bids.map(\.price) != book.bids.map(\.price).sorted(by: >) {
                problem("\(name): bids are not highest first")
            }
            if book.asks.map(\.price) != book.asks.map(\.price).sorted() {
                problem("\(name): asks are not lowest first")
            }
        case .rates(let table):
            let base = samples.fxBase ?? "USD"
            if table.source != id || table.base != base {
                problem("\(name): rates of \(table.source) from \(table.base), asked from \(base)")
            }
            if table.rates.isEmpty { problem("\(name): no rates") }
        case .events(let observations):
            for observation in observations {
                let context = "\(name) \(observation.source)"
                if observation.facts.isEmpty { problem("\(context): no facts") }
                if observation.venue != id { problem("\(context): an observation of \(observation.venue)") }
                if observation.observedAt != Self.probeTime { problem("\(context): not observed at the time asked") }
                // Recorded answers decode whole, as market lists do.
                for entry in observation.skipped { problem("\(context): the recorded answer skips an entry: \(entry)") }
            }
        case .transfers(let rows):
            if rows.isEmpty { problem("\(name): no row for \(listed.base)") }
            if let row = rows.first(where: { $0.exchange != id || $0.coin != listed.base }) {
                problem("\(name): a row of \(row.exchange) \(row.coin), asked for \(listed.base)")
            }
            if let row = rows.first(where: { ($0.withdrawFee ?? 0) < 0 }) {
                problem("\(name): a negative withdrawal fee for \(row.coin)\(row.network.map { " on \($0)" } ?? "")")
            }
        }
    }

    func checkQuote(_ quote: Quote, market: Market, context: String) {
        if quote.exchange != id || quote.market != market {
            problem("\(context): a quote of \(quote.exchange) \(quote.market), asked for \(market)")
        }
        if !(quote.last > 0) { problem("\(context): last price \(quote.last) is not positive") }
    }

    /// Rows of candles (oldest first) or trades (newest first): some, at most `rows`, in order.
    func checkRows(_ times: [Timestamp], ascending: Bool, context: String) {
        if times.isEmpty { problem("\(context): none") }
        if times.count > Self.rows { problem("\(context): \(times.count) rows, asked for \(Self.rows)") }
        if times != times.sorted(by: ascending ? (<) : (>)) {
            problem("\(context): not \(ascending ? "oldest" : "newest") first")
        }
    }

    // MARK: Not listed

    func checkNotListed(_ adapter: any VenueAdapter) async {
        guard let unlisted = samples.unlisted else { return }
        for capability in [Capability.ticker, .candles, .trades, .orderBook] where descriptor.supports(capability) {
            do throws(AggError) {
                _ = try await ask(capability, adapter, market: unlisted)
                problem("\(capability.rawValue): \(unlisted) answers, but is the unlisted sample")
            } catch {
                checkNotListed(error, market: unlisted, context: capability.rawValue)
            }
        }
        if descriptor.supports(.transferStatus) {
            await checkUnlistedTransfers(adapter, coin: unlisted.base)
        }
        guard descriptor.supports(.ticker) else { return }
        let results = await adapter.quotes(for: [listed, unlisted])
        if Set(results.keys) != [listed, unlisted] {
            problem("quotes: answers for \(results.keys.sorted()), asked for \([listed, unlisted])")
        }
        switch results[listed] {
        case .success(let quote): checkQuote(quote, market: listed, context: "quotes")
        case .failure(let error): problem("quotes: \(listed) fails beside an unlisted market: \(error.description)")
        case nil: break
        }
        if case .failure(let error) = results[unlisted] {
            checkNotListed(error, market: unlisted, context: "quotes")
        } else if results[unlisted] != nil {
            problem("quotes: \(unlisted) answers, but is the unlisted sample")
        }
    }

    /// A coin the venue does not list has no transfer status rows (the caller reports it as not
    /// listed), rather than an error of the whole list or rows of another coin.
    func checkUnlistedTransfers(_ adapter: any VenueAdapter, coin: String) async {
        let name = Capability.transferStatus.rawValue
        do throws(AggError) {
            let rows = try await adapter.transferStatus(coins: [coin])
            if !rows.isEmpty {
                problem("\(name): \(rows.count == 1 ? "a row" : "\(rows.count) rows") for \(coin), the unlisted sample")
            }
        } catch {
            problem("\(name): the unlisted sample \(coin) fails the whole list: \(error.description)")
        }
    }

    func checkNotListed(_ error: AggError, market: Market, context: String) {
        checkError(error, context: context)
        guard case .notListed(let venue, let named, _, _) = error, venue == id, named == market else {
            problem("\(context): \(market) gives \(error.description), not 'not listed' for \(market)")
            return
        }
    }

    /// A market in a currency the venue does not serve is not listed, and costs no request.
    func checkUnserved(http: any HTTPClient, baseURL: String) async {
        guard let currency = ["ZZZ", "ZZZZ"].first(where: { !descriptor.quoteCurrencies.contains($0) }) else { return }
        let market = Market(base: listed.base, quote: currency)
        for capability in [Capability.ticker, .candles, .trades, .orderBook] where descriptor.supports(capability) {
            let counting = CountingHTTPClient(base: http)
            let adapter = registration.make(AdapterEnvironment(baseURL: baseURL, http: counting))
            let context = "\(capability.rawValue) in an unserved currency"
            do throws(AggError) {
                _ = try await ask(capability, adapter, market: market)
                problem("\(context): \(market) answers, though the venue serves no \(currency) markets")
            } catch {
                checkNotListed(error, market: market, context: context)
            }
            if counting.count > 0 {
                problem(
                    "\(context): \(market) costs \(counting.count == 1 ? "a request" : "\(counting.count) requests")")
            }
        }
    }

    // MARK: Errors

    /// Answers that go wrong in every way a venue or a network can, for every declared capability.
    static let brokenAnswers: [(name: String, mustFail: Bool, answer: @Sendable (HTTPRequest) throws -> HTTPResponse)] =
        [
            ("no connection", true, { throw TransportError.connection(url: $0.url, detail: "refused") }),
            (
                "an HTML error page", true,
                { HTTPResponse(status: 503, headers: [], body: Array("<html>\n<b>down</b>".utf8), url: $0.url) }
            ),
            (
                "a body that is not JSON", true,
                { HTTPResponse(status: 200, headers: [], body: Array("OK".utf8), url: $0.url) }
            ),
            ("an empty object", false, { HTTPResponse(status: 200, headers: [], body: Array("{}".utf8), url: $0.url) }),
            ("an empty array", false, { HTTPResponse(status: 200, headers: [], body: Array("[]".utf8), url: $0.url) }),
            ("null", false, { HTTPResponse(status: 200, headers: [], body: Array("null".utf8), url: $0.url) }),
        ]

    func checkBrokenAnswers(baseURL: String) async {
        for broken in Self.brokenAnswers {
            let adapter = registration.make(
                AdapterEnvironment(baseURL: baseURL, http: ScriptedHTTPClient(broken.answer)))
            for capability in descriptor.capabilities.sorted() {
                do throws(AggError) {
                    _ = try await ask(capability, adapter, market: listed)
                    if broken.mustFail { problem("\(capability.rawValue): answers despite \(broken.name)") }
                } catch {
                    checkError(error, context: "\(capability.rawValue) on \(broken.name)")
                }
            }
        }
    }

    /// Every error is one line that names this venue first, and blames the venue, not the user.
    func checkError(_ error: AggError, context: String) {
        let text = error.description
        if error.venue != id || !text.hasPrefix(id + ": ") {
            problem("\(context): the error does not name \(id) first: \(text)")
        }
        if text.contains(where: \.isNewline) { problem("\(context): the error is not one line: \(text)") }
        if error.isUsageError { problem("\(context): a usage error for a venue's answer: \(text)") }
    }
}

/// Counts the requests it passes on.
private final class CountingHTTPClient: HTTPClient {
    let base: any HTTPClient
    private let sent = Mutex(0)

    init(base: any HTTPClient) {
        self.base = base
    }

    var count: Int { sent.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.withLock { $0 += 1 }
        return try await base.send(request)
    }
}
