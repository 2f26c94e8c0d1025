import AggCore
import AggServer
import AggTestKit
import Foundation
import Synchronization
import Testing

@testable import AggOptions
@testable import AggServe
@testable import AggServices

/// `agg serve` when a venue hangs or fails: each venue is published as it answers, within its
/// own deadline; a failed venue's last good tickers are served marked stale; `/healthz` says
/// which venues are stale and how old the snapshot is; `/metrics` keeps the dead venue's last
/// prices and time so that an age alert fires.
@Suite("agg serve: one bad venue costs only itself")
struct ServeDegradedTests {
    /// A switch a test flips to make venues fail from the next poll on.
    final class Failing: Sendable {
        private let venues = Mutex<Set<String>>([])
        func set(_ ids: Set<String>) { venues.withLock { $0 = ids } }
        func contains(_ id: String) -> Bool { venues.withLock { $0.contains(id) } }
    }

    static let registry = fixedRegistry(["bithumb", "binance", "exchangerate"])

    static func failing(_ switch: Failing) -> @Sendable (String, LoopbackRequest) -> LoopbackReply? {
        { venue, _ in `switch`.contains(venue) ? .status(503) : nil }
    }

    /// A server that polled every venue once, then polls again `seconds` later with `venues`
    /// answering 503: the harness, `/metrics` before the failure, and the second snapshot.
    static func failed(_ venues: Set<String>, after seconds: Double) async throws
        -> (harness: ServeHarness, metricsBefore: String, snapshot: ServeSnapshot)
    {
        let switchboard = Failing()
        let clock = FakeClock()
        let harness = try ServeHarness(registry: registry, now: { clock.now }, override: failing(switchboard))
        await harness.poll()
        let before = try await harness.get("/metrics").text
        switchboard.set(venues)
        clock.advance(seconds)
        return (harness, before, await harness.poll())
    }

    /// The line of `metrics` that starts with `prefix`.
    static func line(_ metrics: String, _ prefix: String) -> String? {
        metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    @Test("a hung venue costs its deadline only: the poll ends at --timeout, the others are published")
    func hungVenue() async throws {
        let harness = try ServeHarness(
            registry: Self.registry, arguments: ["--timeout", "1"],
            override: { venue, _ in venue == "binance" ? LoopbackReply(delay: 600) : nil })
        let started = ContinuousClock.now
        let snapshot = await harness.poll()
        let elapsed = ContinuousClock.now - started
        // The deadline is 1 s; the bound leaves room for a loaded machine (the poll also makes
        // the board), and is still a fifth of what waiting for the hung venue would take.
        #expect(elapsed < .seconds(120))
        #expect(snapshot.isUp("bithumb"))
        #expect(!snapshot.isUp("binance"))
        let quote = try await harness.get("/v1/quote?symbol=BTC&exchange=bithumb")
        #expect(quote.status == 200)
        #expect(quote.text.contains(#""last":"80630000""#))
        let health = try await harness.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text.hasPrefix(#"{"status":"degraded","generation":"#))
        #expect(health.text.contains(#""stale":["binance"]"#))
    }

    @Test(
        "a venue's deadline is --timeout, but at most four fifths of the interval",
        arguments: [
            ([], 5.0, 4.0), ([], 60.0, 10.0), (["--timeout", "2"], 5.0, 2.0), (["--timeout", "30"], 10.0, 8.0),
        ])
    func deadline(arguments: [String], interval: Double, deadline: Double) throws {
        let parsed = try ArgumentParser.parse(arguments, spec: ServeCommand.spec)
        let context = CLIContext(
            registry: Self.registry, environment: [:],
            console: Console(standardOutput: BufferSink(), standardError: BufferSink(), width: 80),
            makeHTTPClient: { _ in NoNetworkHTTPClient() })
        let options = try NetworkOptions(parsed, context: context)
        let poller = ServePoller(
            plan: try ServePlan(registry: Self.registry, exchanges: [], fx: [], coins: ["BTC"]),
            factory: AdapterFactory(context: context, options: options), venueDeadline: options.timeouts.total,
            now: { Timestamp(secondsSince1970: 0) }, publish: { _, _ in })
        #expect(poller.deadline(interval: interval) == deadline)
    }

    @Test("each venue is published as it answers: the first answers are served before a slow venue's")
    func publishedAsAnswered() async throws {
        let harness = try ServeHarness(
            registry: Self.registry,
            override: { venue, _ in venue == "binance" ? LoopbackReply(delay: 10) : nil })
        let poll = Task { await harness.poll() }
        var early = 0
        for _ in 0..<800 where early != 200 {
            early = (try? await harness.get("/v1/quote?symbol=BTC&exchange=bithumb").status) ?? 0
            if early != 200 { try await Task.sleep(for: .milliseconds(10)) }
        }
        let binanceBefore = try await harness.get("/v1/quote?symbol=BTC&exchange=binance")
        let snapshot = await poll.value
        #expect(early == 200)
        // Served before binance answered: bithumb's quote, and no binance quote yet.
        #expect(binanceBefore.status == 200)
        #expect(binanceBefore.text.hasPrefix(#"{"quotes":[],"errors":[{"exchange":"binance""#))
        // Then binance's (empty, so failed) answer came, in a later snapshot of the same poll.
        #expect(snapshot.venues["binance"] != nil)
        #expect(!snapshot.isUp("binance"))
    }

    @Test("a failed venue's last good quote is served marked stale; /healthz and /metrics say so")
    func lastGoodMarkedStale() async throws {
        let (harness, before, snapshot) = try await Self.failed(["bithumb"], after: 42)
        #expect(!snapshot.isUp("bithumb"))
        let quote = try await harness.get("/v1/quote?symbol=BTC&exchange=bithumb")
        #expect(quote.status == 200)
        #expect(quote.text.contains(#""last":"80630000""#))
        // Received at the first poll, aged from Bithumb's time at the snapshot's, stale: its venue is down.
        #expect(
            quote.text.contains(
                #""timestamp":"2024-08-08T08:12:15.027Z","receivedAt":"2027-01-15T08:00:00.000Z","#
                    + #""ageSeconds":"76895306.973","stale":true}"#))
        let health = try await harness.get("/healthz")
        #expect(health.status == 200)
        #expect(
            health.text
                == #"{"status":"degraded","generation":\#(snapshot.generation),"snapshotTime":"\#(snapshot.time)","ageSeconds":0,"stale":["bithumb"]}"#
                + "\n")
        let metrics = try await harness.get("/metrics").text
        #expect(Self.line(metrics, #"agg_source_up{exchange="bithumb"}"#) == #"agg_source_up{exchange="bithumb"} 0"#)
        let timestamp = #"agg_quote_timestamp_seconds{exchange="bithumb"}"#
        #expect(Self.line(metrics, timestamp) != nil)
        #expect(Self.line(metrics, timestamp) == Self.line(before, timestamp))
        let price = #"agg_price{exchange="bithumb",symbol="BTC",quote="KRW"}"#
        #expect(Self.line(metrics, price) == Self.line(before, price))
    }

    @Test("a failed FX source keeps its last rates and time in /metrics, with agg_source_up 0")
    func failedFXSourceKeepsItsTime() async throws {
        // The recorded table's next update has passed: the source is due again after 60 s.
        let (harness, before, snapshot) = try await Self.failed(["exchangerate"], after: 61)
        #expect(!snapshot.isUp("exchangerate"))
        let metrics = try await harness.get("/metrics").text
        #expect(
            Self.line(metrics, #"agg_source_up{exchange="exchangerate"}"#)
                == #"agg_source_up{exchange="exchangerate"} 0"#)
        let time = #"agg_fx_timestamp_seconds{source="exchangerate"}"#
        #expect(Self.line(metrics, time) != nil)
        #expect(Self.line(metrics, time) == Self.line(before, time))
        let rate = #"agg_fx_rate{source="exchangerate",base="USD",quote="KRW"}"#
        #expect(Self.line(metrics, rate) != nil)
        #expect(Self.line(metrics, rate) == Self.line(before, rate))
    }

    @Test("/healthz is 503 only when no venue is fresh, with the same body")
    func nothingFresh() async throws {
        let (harness, _, snapshot) = try await Self.failed(["bithumb", "binance"], after: 10)
        let health = try await harness.get("/healthz")
        #expect(health.status == 503)
        #expect(
            health.text
                == #"{"status":"down","generation":\#(snapshot.generation),"snapshotTime":"\#(snapshot.time)","ageSeconds":0,"stale":["binance","bithumb"]}"#
                + "\n")
    }
}
