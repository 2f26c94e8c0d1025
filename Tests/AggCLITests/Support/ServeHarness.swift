import AggCore
import AggServer
import AggTestKit
import AggTransport
import Foundation

@testable import AggOptions
@testable import AggServe
@testable import AggServices

/// `agg serve` in this process on an ephemeral loopback port, its poller reading the loopback
/// fixture server. The poller polls only when a test calls `poll()`, so every count is exact.
final class ServeHarness: Sendable {
    let fixtures: FixtureServer
    let runtime: ServeRuntime
    let registry: AdapterRegistry
    let http: CurlHTTPClient

    init(
        registry: AdapterRegistry = testRegistry(), arguments: [String] = [], token: String? = nil,
        history: (any HistoryStore)? = nil, streamQueue: Int = ServeOptions.streamQueue,
        now: (@Sendable () -> Timestamp)? = nil, work: ServeLimits = .patient,
        override: @escaping @Sendable (String, LoopbackRequest) -> LoopbackReply? = { _, _ in nil }
    ) throws {
        let fixtures = try FixtureServer(override: override)
        let http = CurlHTTPClient()
        var context = CLIContext(
            registry: registry, environment: fixtures.environment,
            console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 200),
            makeHTTPClient: { _ in http })
        if let now { context.now = now }
        context.historyStore = history
        // A poll's venues have a minute unless the test says otherwise: on a loaded machine a
        // venue paced by its token bucket can take longer than the default 10 s.
        let deadline = arguments.contains("--timeout") ? [] : ["--timeout", "60"]
        let parsed = try ArgumentParser.parse(arguments + deadline, spec: ServeCommand.spec)
        // The command's own request: the options and the plan `agg serve` would poll.
        let request = try ServeRequest(parsed, context: context) { _ in }
        self.fixtures = fixtures
        self.registry = registry
        self.http = http
        runtime = try ServeRuntime(
            context: context, options: request.options, plan: request.plan,
            address: ListenAddress.standard.with(port: 0),
            token: token.flatMap(BearerToken.init), work: work, streamQueue: streamQueue)
    }

    deinit {
        runtime.server.stop()
        fixtures.stop()
    }

    var port: Int { Int(runtime.server.address.port) }

    /// One poll, published.
    @discardableResult
    func poll() async -> ServeSnapshot { await runtime.poller.poll() }

    func get(_ path: String, headers: [String] = [], method: String = "GET") async throws -> RawHTTPClient.Answer {
        // As long as serve may take to answer (`ServeLimits.patient`, unless the test set less).
        try await RawHTTPClient.get(
            port: port, path, headers: headers, method: method, timeout: runtime.app.limits.computeSeconds + 5)
    }

    /// The CLI run in this process against the same fixtures, at `now`.
    func cli(_ arguments: [String], now: Timestamp) async -> CLIRun {
        await runCLI(arguments, environment: fixtures.environment, http: http, registry: registry, now: now)
    }

    /// Requests the fixture server has received.
    var upstreamRequests: Int { fixtures.requests.count }
}

extension ServeLimits {
    /// The standard limits with five minutes for an answer instead of 10 s. The suites that
    /// check what serve answers run beside a thousand other tests on two cores, whose work can
    /// keep serve's from the cooperative pool for longer than 10 s (the scaffold check's debug
    /// suite once answered `/v1/events` with 503 so); the deadline itself is
    /// `ServeLimitsTests.lateAnswer`'s, with a store that never answers.
    static var patient: ServeLimits {
        var limits = ServeLimits.standard
        limits.computeSeconds = 300
        return limits
    }
}

/// A history store in memory, answering queries the way the protocol says (oldest first, then
/// by exchange), for `/v1/history`.
actor MemoryHistoryStore: HistoryStoreStub {
    private var prices: [PricePoint]
    private var premiums: [PremiumPoint]

    init(prices: [PricePoint], premiums: [PremiumPoint]) {
        self.prices = prices
        self.premiums = premiums
    }

    func record(_ tick: RecordedTick) async throws(AggError) {
        prices += tick.prices
        premiums += tick.premiums
    }

    func prices(_ query: HistoryQuery) async throws(AggError) -> [PricePoint] {
        prices.filter { point in
            point.market.base == query.symbol && point.time.millisecondsSince1970 >= query.since.millisecondsSince1970
                && (query.exchanges.isEmpty || query.exchanges.contains(point.exchange))
        }.sorted { ($0.time.millisecondsSince1970, $0.exchange) < ($1.time.millisecondsSince1970, $1.exchange) }
    }

    func premiums(_ query: HistoryQuery) async throws(AggError) -> [PremiumPoint] {
        premiums.filter { point in
            point.symbol == query.symbol && point.time.millisecondsSince1970 >= query.since.millisecondsSince1970
                && (query.exchanges.isEmpty || query.exchanges.contains(point.exchange))
        }.sorted { ($0.time.millisecondsSince1970, $0.exchange) < ($1.time.millisecondsSince1970, $1.exchange) }
    }

}
