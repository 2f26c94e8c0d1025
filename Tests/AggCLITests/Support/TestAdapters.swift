import AggCore
import AggTestKit
import AggVenues
import Foundation
import Synchronization

/// The venues the CLI tests were written against, taken from the standard registry and fixed,
/// so that adding a venue to agg changes no expectation here. Tests that go through every venue
/// use `AdapterRegistry.standard` itself and derive what they expect from it.
func testRegistry() -> AdapterRegistry {
    fixedRegistry(["bithumb", "upbit", "binance", "coinbase", "exchangerate"])
}

/// `testRegistry()` without its FX venue, for tests that bring their own.
func venueRegistry() -> AdapterRegistry {
    fixedRegistry(["bithumb", "upbit", "binance", "coinbase"])
}

/// The standard registry's venues with `ids`, and no others.
func fixedRegistry(_ ids: [String]) -> AdapterRegistry {
    AdapterRegistry(AdapterRegistry.standard.registrations.filter { ids.contains($0.descriptor.id) })
}

/// A venue that publishes Korean and English names, as Upbit's `/v1/market/all` does, so that
/// name search is tested without depending on a real adapter. It answers without any request.
struct NamedListingsAdapter: CompiledAdapter {
    static let descriptor = AdapterDescriptor(
        id: "testnames", displayName: "Test names", country: "KR", homeCurrency: "KRW",
        quoteCurrencies: ["KRW", "BTC"], capabilities: [.ticker, .allTickers, .markets], requestsPerSecond: 2,
        defaultBaseURL: "https://names.invalid")

    static let listings: [(base: String, quote: String, korean: String, english: String, last: String)] = [
        ("BTC", "KRW", "비트코인", "Bitcoin", "80500000"),
        ("BCH", "KRW", "비트코인캐시", "Bitcoin Cash", "462000"),
        ("BSV", "KRW", "비트코인에스브이", "Bitcoin SV", "61000"),
        ("ETH", "KRW", "이더리움", "Ethereum", "3400000"),
        ("ETC", "KRW", "이더리움클래식", "Ethereum Classic", "28000"),
        ("ETH", "BTC", "이더리움", "Ethereum", "0.0422"),
    ]

    init(environment: AdapterEnvironment) {}

    func fetchMarkets() async throws(AggError) -> BulkAnswer<MarketListing> {
        BulkAnswer(
            values: Self.listings.map {
                MarketListing(
                    exchange: Self.descriptor.id, market: Market(base: $0.base, quote: $0.quote),
                    venueSymbol: "\($0.quote)-\($0.base)", koreanName: $0.korean, englishName: $0.english)
            })
    }

    func fetchAllQuotes(_ request: TickersRequest) async throws(AggError) -> BulkAnswer<Quote> {
        BulkAnswer(values: Self.tickers(quotedIn: request.currency))
    }

    /// The table's tickers quoted in `currency`.
    static func tickers(quotedIn currency: String) -> [Quote] {
        listings.filter { $0.quote == currency }.map {
            Quote(
                exchange: descriptor.id, market: Market(base: $0.base, quote: $0.quote),
                last: Decimal(string: $0.last) ?? 0)
        }
    }

    func quote(for market: Market) async throws(AggError) -> Quote {
        guard let quote = Self.tickers(quotedIn: market.quote).first(where: { $0.market == market }) else {
            throw .notListed(venue: Self.descriptor.id, market: market, code: "", message: "")
        }
        return quote
    }
}

/// A venue that can give tickers and nothing else, for capability errors.
struct TickerOnlyAdapter: CompiledAdapter {
    static let descriptor = AdapterDescriptor(
        id: "testbare", displayName: "Test bare", country: "US", homeCurrency: "USD", quoteCurrencies: ["USD"],
        capabilities: [.ticker], requestsPerSecond: 10, defaultBaseURL: "https://bare.invalid")

    init(environment: AdapterEnvironment) {}

    func quote(for market: Market) async throws(AggError) -> Quote {
        Quote(exchange: Self.descriptor.id, market: market, last: 1)
    }
}

/// The executable's registry plus the test-only venues.
func extendedRegistry() -> AdapterRegistry {
    var registry = bithumbRegistry()
    registry.register(NamedListingsAdapter.self)
    registry.register(TickerOnlyAdapter.self)
    return registry
}

/// A temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("agg-cli5-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `text` as a config file in a new temporary directory and returns its path.
func configFile(_ text: String) throws -> String {
    let url = try temporaryDirectory().appendingPathComponent("config.json")
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Counts calls across tasks.
final class CallCounter: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
}

/// An HTTP client answering from Bithumb's fixture answers (as `--offline` does, at the
/// default base URL), with each body passed through `edit` along with the request's number
/// (1 for the first). It records every request.
func recordedBithumb(edit: @escaping @Sendable (_ body: String, _ call: Int) -> String = { body, _ in body })
    throws -> ScriptedHTTPClient
{
    let routes = try Fixtures.routes("bithumb")
    let counter = CallCounter()
    let base = testRegistry().descriptor(id: "bithumb")?.defaultBaseURL ?? ""
    return ScriptedHTTPClient { request in
        let call = counter.next()
        let rest = String(request.url.dropFirst(base.count))
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let answer = try routes.answer(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "")
        else {
            throw TransportError.connection(url: request.url, detail: "no recorded answer")
        }
        let body = edit(String(decoding: answer.body, as: UTF8.self), call)
        return HTTPResponse(status: answer.status, headers: answer.headers, body: Array(body.utf8), url: request.url)
    }
}

/// What a child process printed and returned.
struct ProcessRun: Sendable {
    var status: Int32
    var output: String
}

/// Runs `executable` with `arguments` to completion on a thread of its own, so that waiting for
/// it never blocks the cooperative pool that the other tests share.
func runProcess(_ executable: String, _ arguments: [String]) async throws -> ProcessRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(
                returning: ProcessRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)))
        }
    }
}

/// Bithumb alone: for tests whose expectations name every registered venue.
func bithumbRegistry() -> AdapterRegistry {
    fixedRegistry(["bithumb"])
}

/// `runCLI` with Bithumb as the only venue.
func runBithumbCLI(
    _ arguments: [String], environment: [String: String] = [:], http: (any HTTPClient)? = nil
) async -> CLIRun {
    await runCLI(arguments, environment: environment, http: http, registry: bithumbRegistry())
}
